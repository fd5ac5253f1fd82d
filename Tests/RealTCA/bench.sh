#!/usr/bin/env bash
# What recording costs an app on pointfreeco's TCA: builds RealTCABench in release against the
# patched TCA and runs it (a small-state action to a plain TCA `Store` and to a `RecordingStore`,
# in pairs; see Sources/RealTCABench/main.swift and Documentation/Performance.md).
#
#   REAL_TCA=DIR Tests/RealTCA/bench.sh [rows|journal|limit] [PAIRS [SENDS]]
#   REAL_TCA=DIR Tests/RealTCA/bench.sh instructions [burst|tap|timer|typing|rows…]
#
# With `rows`, an action that changes one row instead, at 10, 1,000 and 100,000 rows. With
# `journal` or `limit` (issue #73; default 21 pairs of 20,000 actions), the store's CPU time of a
# recording with the flight journal against one without, or within a size limit of 1 MB against
# none. With `instructions` (issue #75), what an action costs the store's thread and the writer's
# in instructions under valgrind's callgrind, for a burst, a tap, a timer, typing and one row
# changed at 100,000 rows (valgrind and objcopy on PATH).
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
.build/release/RealTCABench "$@"
