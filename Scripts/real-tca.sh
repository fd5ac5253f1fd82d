#!/usr/bin/env bash
# The developers' loop on pointfreeco's TCA: makes the patched TCA from the bundles in
# ../shared/real-tca once, keeps it in a cache folder, and runs with it the check that records
# on both hosts, the benchmark, or the measure of TCA's own Examples.
#
#   Scripts/real-tca.sh [check | bench [ARGUMENTS…] | examples]     (check by default)
#
#   check      Tests/RealTCA/check.sh: the app and the library recorded alike on TCA and on
#              Composable, stripped builds, the no-trait shape, the generated tests against
#              TCA's TestStore (what CI runs)
#   bench      Tests/RealTCA/bench.sh with ARGUMENTS: what recording costs on TCA
#   examples   Tests/TCAExamples/measure.sh: TCA's Examples built and tested
#
# REAL_TCA_SHARED names the folder that holds real-tca/ (default: ../shared beside this
# checkout); REAL_TCA_CACHE the cache folder (default: .build-real-tca in this checkout). The
# prepared TCA is kept in a folder named for the bundles' checksum: new bundles are unbundled
# into a new folder, as SwiftPM, which caches clones by their location, needs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${REAL_TCA_SHARED:-$root/../shared}
bundles="$shared/real-tca/bundles"
cache=${REAL_TCA_CACHE:-$root/.build-real-tca}

command=${1:-check}
[ $# -gt 0 ] && shift
case "$command" in
  check) script="$root/Tests/RealTCA/check.sh" ;;
  bench) script="$root/Tests/RealTCA/bench.sh" ;;
  examples) script="$root/Tests/TCAExamples/measure.sh" ;;
  -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "Scripts/real-tca.sh: no command '$command': check, bench or examples" >&2; exit 2 ;;
esac

if [ ! -x "$shared/real-tca/unbundle.sh" ] || ! ls "$bundles"/*.bundle > /dev/null 2>&1; then
  echo "Scripts/real-tca.sh: no bundles of the real TCA in $bundles: set REAL_TCA_SHARED to the folder that holds real-tca/" >&2
  exit 2
fi
stamp=$(cat "$bundles"/*.bundle | cksum | cut -d ' ' -f 1)
prepared="$cache/$stamp"
if [ ! -f "$prepared/set-mirrors.sh" ]; then
  rm -rf "$prepared"
  mkdir -p "$cache"
  bash "$shared/real-tca/unbundle.sh" "$prepared" >&2
fi
REAL_TCA="$prepared" exec bash "$script" "$@"
