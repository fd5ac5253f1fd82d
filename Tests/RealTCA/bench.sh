#!/usr/bin/env bash
# What recording costs an app on pointfreeco's TCA: builds RealTCABench in release against the
# patched TCA and runs it (a small-state action to a plain TCA `Store` and to a `RecordingStore`,
# in pairs; see Sources/RealTCABench/main.swift and Documentation/Performance.md).
#
#   REAL_TCA=DIR Tests/RealTCA/bench.sh [rows|journal|limit] [PAIRS [SENDS]]
#   REAL_TCA=DIR Tests/RealTCA/bench.sh instructions [burst|tap|timer|typing|rows…]
#   REAL_TCA=DIR Tests/RealTCA/bench.sh live
#
# With `rows`, an action that changes one row instead, at 10, 1,000 and 100,000 rows. With
# `journal` or `limit` (issue #73; default 21 pairs of 20,000 actions), the store's CPU time of a
# recording with the flight journal against one without, or within a size limit of 1 MB against
# none. With `instructions` (issue #75), what an action costs the store's thread and the writer's
# in instructions under valgrind's callgrind, for a burst, a tap, a timer, typing and one row
# changed at 100,000 rows (valgrind and objcopy on PATH). With `live` (issue #74), what streaming
# to `tcatrace serve --live` costs the store's thread, in instructions, for the tap: the server is
# the main package's `tcatrace`, built here if need be, on loopback.
#
# DIR is a folder prepared by ../shared/real-tca/prepare.sh, as for check.sh. Without it the
# benchmark is skipped with a message. A cold release build takes a while on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ -z "${REAL_TCA:-}" ] || [ ! -f "${REAL_TCA}/set-mirrors.sh" ]; then
  echo "Tests/RealTCA/bench.sh: skipped: set REAL_TCA to a folder prepared by ../shared/real-tca/prepare.sh (see Documentation/RealTCA.md)"
  exit 0
fi

cd "$here"
bash "$REAL_TCA/set-mirrors.sh" > /dev/null
swift build -c release --product RealTCABench 2>&1 | tail -n 1 || exit 2
if [ "${1:-}" = "live" ]; then
  root=$(cd "$here/../.." && pwd)
  for product in tcatrace tcatrace-serve; do
    (cd "$root" && swift build --product "$product" 2>&1 | tail -n 1) || exit 2
  done
  live=$(mktemp -d)
  "$root/.build/debug/tcatrace" serve --live "$live/live" > "$live/out" 2> /dev/null &
  server=$!
  trap 'kill "$server" 2> /dev/null; wait "$server" 2> /dev/null; rm -rf "$live"' EXIT
  for _ in $(seq 600); do
    grep -q '^TCATRACE_DEBUGGER=' "$live/out" && break
    sleep 0.1
  done
  value=$(grep '^TCATRACE_DEBUGGER=' "$live/out" | cut -d= -f2) || {
    echo "Tests/RealTCA/bench.sh: tcatrace serve --live printed no TCATRACE_DEBUGGER line"
    exit 2
  }
  .build/release/RealTCABench live-instructions "$value"
  exit
fi
.build/release/RealTCABench "$@"
