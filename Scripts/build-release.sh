#!/usr/bin/env bash
# Builds the release programs to install: `tcatrace` and `tcatrace-lint`, with
# `tcatrace-demo` and `tcatrace-serve` beside them (which `tcatrace demo` and `tcatrace serve`
# run), and prints the folder they are in.
#
#   Scripts/build-release.sh [SCRATCH]     SCRATCH: SwiftPM's build folder (.build by default)
#
# On Linux each program carries what it would otherwise load. `tcatrace` is one static
# executable: the Swift runtime, FoundationEssentials (all the Foundation it imports), SQLite
# (Debian's `libsqlite3.a`, from `libsqlite3-dev`) and the C libraries; the loader then maps
# and binds nothing, so each command starts sooner (Documentation/Performance.md). It runs on
# any Linux of its architecture: it calls neither glibc's name lookups nor `dlopen`, which a
# static glibc cannot serve (SQLite's extensions are off). `tcatrace-lint` carries the Swift
# runtime and Foundation and is not position-independent: the loader binds no Swift library's
# symbols and applies no relative relocations. Elsewhere, and `tcatrace-demo` and
# `tcatrace-serve` everywhere, the programs are built as SwiftPM builds them.
#
# These are linker flags for the programs, not for the libraries an app links, so they live
# here and not in Package.swift: SwiftPM refuses `unsafeFlags` in a package that another one
# depends on by version.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${1:-.build}

build() {
  swift build --configuration release --scratch-path "$scratch" --product "$@" >&2
}

if [ "$(uname -s)" = Linux ]; then
  build tcatrace -Xswiftc -static-executable \
    -Xlinker -l_FoundationCShims -Xlinker -l_FoundationCollections -Xlinker -lswiftSynchronization
  # NB: Static Foundation's own libraries: the modules are compiled against the shared ones,
  # whose interfaces do not name them.
  build tcatrace-lint -Xswiftc -static-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie \
    -Xlinker -lCoreFoundation -Xlinker -l_FoundationICU -Xlinker -l_FoundationCShims \
    -Xlinker -l_FoundationCollections -Xlinker -lswiftSynchronization
else
  build tcatrace
  build tcatrace-lint
fi
build tcatrace-demo
build tcatrace-serve
swift build --configuration release --scratch-path "$scratch" --show-bin-path
