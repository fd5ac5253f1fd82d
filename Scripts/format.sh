#!/usr/bin/env bash
# Formats this repository's Swift sources with `swift format` (it ships with the toolchain) and
# the configuration in `.swift-format`.
#
#   Scripts/format.sh          rewrites the files in place
#   Scripts/format.sh --lint   changes nothing; fails, naming each place, where a file is not
#                              formatted (what CI runs)
#
# Left out: tests `tcatrace test` wrote, which the suite compares with what it writes now
# (`Generated/`, and the RealTCA package's `*SessionTest.swift`), and symbolic links (the
# RealTCA package's links to this package's sources, which are formatted where they are).
set -euo pipefail
cd "$(dirname "$0")/.."

files=()
while IFS= read -r file; do files+=("$file"); done < <(
  git ls-files -s -- '*.swift' | awk '$1 != "120000" { print $4 }' \
    | grep -v -e '/Generated/' -e '^Tests/RealTCA/Tests/RealTCATests/.*SessionTest\.swift$'
)

case "${1:-}" in
  --lint) swift format lint --strict --parallel --configuration .swift-format "${files[@]}" ;;
  "") swift format format --in-place --parallel --configuration .swift-format "${files[@]}" ;;
  *) echo "usage: Scripts/format.sh [--lint]" >&2; exit 2 ;;
esac
