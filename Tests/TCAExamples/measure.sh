#!/usr/bin/env bash
# Measures how much of TCA's own Examples compiles and passes its tests against `Composable`
# (issue #43) and against pointfreeco's TCA itself, patched for Linux (issue #70): each app's
# Swift files, with their views stripped (strip_views.py drops SwiftUI and UIKit declarations;
# for `Composable` it swaps `import ComposableArchitecture` for `import Composable`), built as
# the modules the apps' tests import, in a package of its own, in the Swift 6 language mode;
# then the apps' test files, unchanged (but for that import, on `Composable`), built and run
# against them. On TCA the package depends on swift-composable-architecture by URL, which the
# prepared folder's `set-mirrors.sh` points at its copy; on `Composable` it depends on this
# package by path.
#
#   REAL_TCA=DIR Tests/TCAExamples/measure.sh [both | composable | tca]     (both by default)
#
# DIR is a folder prepared by ../shared/real-tca/unbundle.sh or prepare.sh (it holds TCA's
# sources, Examples included; `Scripts/real-tca.sh examples` makes one and passes it); without
# it the measure is skipped with a message. Nothing of TCA's is kept: the copies are written to
# a temporary folder (MEASURE_DIR to choose it; `both` uses its `composable` and `tca` folders).
#
# Prints, per host and module: the files set aside because they import a module Linux lacks
# (or need a module set aside), each file that does not compile with its first error (it is then
# left out, and the module built again without it), and per test file whether it builds and how
# many of its tests pass; `both` then prints the two totals together. Left out: the UIKit and
# tvOS case studies (apps of views) and the Integration app (UI tests).
#
# On TCA it then records the tests that build (issue #71; RECORD=0 skips it): see
# `record_examples` below; it prints what recording changed, each session that does not replay
# or rebuild at some step, each test `tcatrace test` writes that does not compile (its first
# error) or pass, and the counts. It uses this checkout's `tcatrace`, which it builds. It exits 1
# when recording changed a test's outcome, or a session does not replay, rebuild or become a
# test, or (with MINIMUM_COMPILING=N) fewer than N written tests compile.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
examples="${REAL_TCA:-}/swift-composable-architecture/Examples"
if [ -z "${REAL_TCA:-}" ] || [ ! -d "$examples" ]; then
  echo "Tests/TCAExamples/measure.sh: skipped: set REAL_TCA to a folder prepared by ../shared/real-tca/unbundle.sh (or run Scripts/real-tca.sh examples)"
  exit 0
fi

host=${1:-both}
case "$host" in
  composable | tca) ;;
  both)
    base=${MEASURE_DIR:-$(mktemp -d -t tcatrace-examples.XXXXXX)}
    status=0
    for host in composable tca; do
      mkdir -p "$base/$host"
      echo "== TCA's Examples against $([ "$host" = tca ] && echo "pointfreeco's TCA" || echo Composable) =="
      MEASURE_DIR="$base/$host" bash "$0" "$host" | tee "$base/$host.report" || status=1
      echo
    done
    echo "== Both =="
    for host in composable tca; do
      printf '%-11s %s\n' "$host:" "$(grep '^In all:' "$base/$host.report" | sed 's/^In all: //')"
    done
    grep '^Recorded:' "$base/tca.report" | sed 's/^Recorded:/tca, recorded:/' || true
    exit "$status"
    ;;
  *)
    echo "Tests/TCAExamples/measure.sh: no host '$host': both, composable or tca" >&2
    exit 2
    ;;
esac

work=${MEASURE_DIR:-$(mktemp -d -t tcatrace-examples.XXXXXX)}
rm -rf "$work/Sources" "$work/Tests" "$work/SetAside" "$work/Failing" "$work/Results" "$work/Logs"
mkdir -p "$work/Sources" "$work/Tests" "$work/SetAside" "$work/Failing" "$work/Results"
shopt -s nullglob
# Modules Linux does not have (Apple's frameworks), or that TCA's apps have and `Composable`
# does not re-export (XCTestDynamicOverlay, IssueReporting's old name, which the package on TCA
# depends on). SwiftUINavigation, which only views use, is dropped with them by strip_views.py.
unavailable="AVFoundation|Combine|Speech"
[ "$host" = composable ] && unavailable+="|XCTestDynamicOverlay"
tictactoe=TicTacToe/tic-tac-toe
# module | its sources | the modules it imports | products it needs | its tests
# (in an order where a module comes after those it imports, as the apps' projects declare them)
modules=(
  "SwiftUICaseStudies|CaseStudies/SwiftUICaseStudies|||CaseStudies/SwiftUICaseStudiesTests"
  "Search|Search/Search|||Search/SearchTests"
  "SpeechRecognition|SpeechRecognition/SpeechRecognition|||SpeechRecognition/SpeechRecognitionTests"
  "SyncUps|SyncUps/SyncUps||Tagged|SyncUps/SyncUpsTests"
  "AuthenticationClient|$tictactoe/Sources/AuthenticationClient|||"
  "GameCore|$tictactoe/Sources/GameCore|||$tictactoe/Tests/GameCoreTests"
  "NewGameCore|$tictactoe/Sources/NewGameCore|GameCore||$tictactoe/Tests/NewGameCoreTests"
  "TwoFactorCore|$tictactoe/Sources/TwoFactorCore|AuthenticationClient||$tictactoe/Tests/TwoFactorCoreTests"
  "LoginCore|$tictactoe/Sources/LoginCore|AuthenticationClient TwoFactorCore||$tictactoe/Tests/LoginCoreTests"
  "AppCore|$tictactoe/Sources/AppCore|AuthenticationClient LoginCore NewGameCore||$tictactoe/Tests/AppCoreTests"
  "Todos|Todos/Todos|||Todos/TodosTests"
  "VoiceMemos|VoiceMemos/VoiceMemos|||VoiceMemos/VoiceMemosTests"
)
field() { printf '%s' "$1" | cut -d'|' -f"$2"; }
count() { local files=("$1"/*); echo "${#files[@]}"; }

# Copies each module's sources (views stripped) and tests (import swapped), setting aside the
# files that import a module Linux lacks, and every file of a module that imports one set aside.
for entry in "${modules[@]}"; do
  module=$(field "$entry" 1)
  sources=$(field "$entry" 2)
  for dependency in $(field "$entry" 3); do
    if [ ! -d "$work/Sources/$dependency" ] || [ -e "$work/SetAside/$dependency.module" ]; then
      echo "$dependency" > "$work/SetAside/$module.module"
    fi
  done
  [ -e "$work/SetAside/$module.module" ] && continue
  (cd "$examples/$sources" && find . -name '*.swift' | sort) | while read -r file; do
    flat=$(printf '%s' "${file#./}" | tr '/' '_')
    # NB: A file that imports a module Linux does not have is set aside, and named.
    if found=$(grep -m1 -oE "^\s*(@[a-zA-Z]+ )?import ($unavailable)\b" "$examples/$sources/$file"); then
      mkdir -p "$work/SetAside/$module"
      echo "${found##*import }" > "$work/SetAside/$module/$flat"
      continue
    fi
    mkdir -p "$work/Sources/$module"
    python3 "$here/strip_views.py" --host "$host" "$examples/$sources/$file" "$work/Sources/$module/$flat"
  done
  tests=$(field "$entry" 5)
  if [ -n "$tests" ] && [ -d "$work/Sources/$module" ]; then
    mkdir -p "$work/Tests/${module}Tests"
    for file in "$examples/$tests"/*.swift; do
      if [ "$host" = tca ]; then
        cp "$file" "$work/Tests/${module}Tests/${file##*/}"
      else
        sed 's/^import ComposableArchitecture$/import Composable/' "$file" \
          > "$work/Tests/${module}Tests/${file##*/}"
      fi
    done
  fi
done

if [ "$host" = tca ]; then
  library='.product(name: "ComposableArchitecture", package: "swift-composable-architecture"), .product(name: "XCTestDynamicOverlay", package: "xctest-dynamic-overlay")'
  library_package='.package(url: "https://github.com/pointfreeco/swift-composable-architecture", from: "1.25.0"),'
  test_support='.product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay")'
else
  # NB: Depended on through a link named as an app names the package.
  ln -sfn "$root" "$work/TCATrace"
  library='.product(name: "Composable", package: "TCATrace")'
  library_package='.package(path: "TCATrace"),'
  test_support='.product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay")'
fi
# The recorder, once the examples are recorded (`record_examples`).
recorder="" recorder_package=""
# Writes the manifest for the files still in Sources and Tests.
manifest() {
  local targets="" entry module dependencies products dependency product modules_built=""
  for entry in "${modules[@]}"; do
    module=$(field "$entry" 1)
    [ -n "$(ls "$work/Sources/$module" 2>/dev/null)" ] || continue
    dependencies=""
    for dependency in $(field "$entry" 3); do dependencies+="\"$dependency\", "; done
    products=""
    for product in $(field "$entry" 4); do
      products+=".product(name: \"$product\", package: \"swift-tagged\"), "
    done
    targets+="    .target(name: \"$module\", dependencies: [$dependencies$products$library]),"$'\n'
    if [ -n "$(ls "$work/Tests/${module}Tests" 2>/dev/null)" ]; then
      targets+="    .testTarget(name: \"${module}Tests\", dependencies: [\"$module\", $dependencies$library, $test_support$recorder]),"$'\n'
    fi
    [ -n "$(ls "$work/Sources/$module" 2>/dev/null)" ] && modules_built+="\"$module\", "
  done
  # NB: The tests `tcatrace test` wrote of the recorded sessions, when there are some.
  if [ -n "$(ls "$work/Tests/GeneratedTests" 2>/dev/null)" ]; then
    targets+="    .testTarget(name: \"GeneratedTests\", dependencies: [$modules_built$library, $test_support]),"$'\n'
  fi
  cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "TCAExamples",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [
    $library_package$recorder_package
    .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
  ],
  targets: [
$targets  ],
  swiftLanguageModes: [.v6]
)
MANIFEST
}

# Builds `target` until it compiles, each round leaving out the files under `folder` that have
# an error, with their first error written to Failing/. Stops, saying so, when an error is in no
# file it can leave out.
build_leaving_out() {
  local target=$1 folder=$2 round=0 failing line file message
  while [ -n "$(ls "$work/$folder" 2>/dev/null)" ]; do
    manifest
    if swift build --target "$target" > "$work/Logs/$target.log" 2>&1; then return 0; fi
    failing=$(grep -E "^$work/$folder/[^:]+:[0-9]+:[0-9]+: error:" "$work/Logs/$target.log" |
      sed -E "s|^$work/$folder/([^:]+):[0-9]+:[0-9]+: error: (.*)|\1: \2|" |
      awk -F': ' '!seen[$1]++' || true)
    if [ -z "$failing" ]; then
      echo "measure.sh: $target failed to build outside the examples' files; see $work/Logs/$target.log" >&2
      grep -m5 "error:" "$work/Logs/$target.log" >&2 || true
      return 1
    fi
    round=$((round + 1))
    mkdir -p "$work/Failing/$target"
    while IFS= read -r line; do
      file=${line%%: *}
      message=${line#*: }
      if [ "$round" -gt 1 ]; then message+=" (after the files that failed first were left out)"; fi
      printf '%s\n' "$message" > "$work/Failing/$target/$file"
      rm "$work/$folder/$file"
    done <<< "$failing"
  done
}

cd "$work"
mkdir -p Logs
if [ "$host" = tca ]; then
  # NB: The package names TCA by its URL, as an app does; the mirrors, set in a package's folder
  # once it has a manifest, point it at the prepared copy.
  manifest
  bash "$REAL_TCA/set-mirrors.sh" > /dev/null
fi
for entry in "${modules[@]}"; do
  module=$(field "$entry" 1)
  build_leaving_out "$module" "Sources/$module"
done
for entry in "${modules[@]}"; do
  module=$(field "$entry" 1)
  [ -n "$(ls "Sources/$module" 2>/dev/null)" ] || continue
  build_leaving_out "${module}Tests" "Tests/${module}Tests"
done
manifest
swift build --build-tests > Logs/tests.log 2>&1

# Runs each test file's suites on their own, so that each file gets its own count; one test at a
# time: TCA's `TestStore` sets the process's main serial executor on at its start and puts back at
# its end what it found, so that a test ending beside another turns it off under the other, whose
# effects then race its end (seen: 03-Effects-RefreshableTests' cancellation, 1 run in 4).
for folder in Tests/*; do
  [ -d "$folder" ] || continue
  target=${folder##*/}
  for file in "$folder"/*.swift; do
    suites=$(grep -oE '^(@MainActor )?(final )?(struct|class) [A-Za-z0-9_]+' "$file" | awk '{print $NF}' | paste -sd'|')
    [ -n "$suites" ] || continue
    swift test --skip-build --no-parallel --filter "^$target\.($suites)/" > "$work/Results/${file##*/}.log" 2>&1 || true
  done
done

# What a first error says when the file uses an API that only Apple's platforms have.
apple_only() {
  case "$1" in
    *"'UIApplication'"*) echo " [Apple-only: UIKit]" ;;
    *"'URLSession' has no member 'bytes'"*) echo " [Apple-only: Linux's FoundationNetworking has no URLSession.bytes]" ;;
    *"'AppStorageKey'"*) echo " [Apple-only: swift-sharing has .appStorage on Apple's platforms only]" ;;
    *"Not supported in swift-corelibs-foundation"*) echo " [Apple-only]" ;;
    # NB: What `Composable` stands in for, and TCA, which has SwiftUI's, does not on Linux.
    *"'Color'"* | *"'LocalizedStringKey'"* | *"'interpolatingSpring'"* | *"extra argument 'animation'"*)
      echo " [Apple-only: SwiftUI]" ;;
    *"'FileStorageKey'"*) echo " [Apple-only: swift-sharing has .fileStorage on Apple's platforms only]" ;;
    *"'Reducer' specialized with too many type arguments"*)
      echo " [not in TCA's own project: the case study written for TCA 0.x]" ;;
  esac
}

# The report.
all_files=0 all_compiled=0 all_aside=0 all_tests=0 all_built=0 all_passed=0 all_run=0
for entry in "${modules[@]}"; do
  module=$(field "$entry" 1)
  if [ -e "SetAside/$module.module" ]; then
    echo "$module: set aside whole: it imports $(cat "SetAside/$module.module"), which is set aside"
    continue
  fi
  if [ -d "SetAside/$module" ]; then
    for file in SetAside/"$module"/*; do
      echo "$module: set aside ${file##*/} (imports $(cat "$file"))"
    done
  fi
  compiled=$(count "Sources/$module")
  failed=$(count "Failing/$module")
  all_files=$((all_files + compiled + failed))
  all_compiled=$((all_compiled + compiled))
  all_aside=$((all_aside + $(count "SetAside/$module")))
  if [ $((compiled + failed)) -eq 0 ]; then
    echo "$module: every file set aside"
  else
    echo "$module: $compiled of $((compiled + failed)) files compile"
  fi
  if [ "$failed" -gt 0 ]; then
    for file in Failing/"$module"/*; do
      echo "  ${file##*/}: $(cat "$file")$(apple_only "$(cat "$file")")"
    done
  fi
  tests=$(field "$entry" 5)
  [ -n "$tests" ] || continue
  for file in "$examples/$tests"/*.swift; do
    name=${file##*/}
    all_tests=$((all_tests + 1))
    if [ -e "Failing/${module}Tests/$name" ]; then
      echo "  test $name: does not build: $(cat "Failing/${module}Tests/$name")"
    elif [ "$compiled" -eq 0 ] || [ ! -e "Tests/${module}Tests/$name" ]; then
      echo "  test $name: not built (its module does not compile)"
    else
      summary=$(grep -E "Test run with [0-9]+ tests?" "Results/$name.log" | tail -1 |
        sed -E 's/^[^T]*(Test run with)/\1/' || true)
      echo "  test $name: ${summary:-no result; see $work/Results/$name.log}"
      all_built=$((all_built + 1))
      if [[ "$summary" =~ Test\ run\ with\ ([0-9]+)\ tests? ]]; then
        all_run=$((all_run + BASH_REMATCH[1]))
        if [[ "$summary" == *" passed "* ]]; then all_passed=$((all_passed + BASH_REMATCH[1])); fi
      fi
      grep -E "^✘ Test .*(recorded an issue|failed)" "Results/$name.log" | grep -v "failed after" |
        head -3 | sed 's/^/      /' || true
    fi
  done
done
echo "In all: $all_compiled of $all_files files compile, and $all_aside more are set aside;" \
  "$all_built of $all_tests test files build, and $all_passed of their $all_run tests pass (all of a file's count as failing when one fails)."

# On TCA, the examples' tests recorded (issue #71): each test target gets ExampleTraces.swift,
# whose `RecordedTestStore(…)`, which the tests' `TestStore(…)` calls are renamed, wraps the
# store's reducer in `.recording(to:)`, with TCATrace on TCA (its
# `ComposableArchitecture` trait); each test file runs again, recording each store to a file of
# its own; then each session is replayed, rebuilt at every step, and made a test by `tcatrace
# test`, and those tests are built and run. Prints what differs and the counts.
# The name of the test written of the session in trace `base` (`SearchTests_SearchTests.swift-11-1`).
test_name() { printf 'replays_%s' "$1" | tr -c 'A-Za-z0-9_' '_'; }
record_examples() {
  local tcatrace="$root/.build/debug/tcatrace"
  (cd "$root" && swift build --product tcatrace > /dev/null 2>&1 && swift build --product tcatrace-lint > /dev/null 2>&1) || {
    echo "measure.sh: tcatrace did not build in $root" >&2
    return 1
  }
  ln -sfn "$root" "$work/TCATrace"
  recorder=', .product(name: "TCATrace", package: "TCATrace")'
  recorder_package=$'\n    .package(path: "TCATrace", traits: ["ComposableArchitecture"]),'
  local folder file name target suites log
  # NB: Only the name of the call changes: a function of the test's module named `TestStore`
  # would be as good a match as TCA's initializer, which Swift calls ambiguous.
  for folder in Tests/*Tests; do
    [ -n "$(ls "$folder")" ] || continue
    sed -i -E 's/(^|[^A-Za-z0-9_])TestStore\(/\1RecordedTestStore(/g' "$folder"/*.swift
    cp "$here/ExampleTraces.swift" "$folder/"
  done
  rm -rf Tests/GeneratedTests Traces Recorded Generated
  mkdir -p Traces Recorded Generated
  manifest
  if ! swift build --build-tests > Logs/recorded.log 2>&1; then
    echo "measure.sh: the tests did not build with the recorder; see $work/Logs/recorded.log" >&2
    grep -m5 "error:" Logs/recorded.log >&2 || true
    return 1
  fi
  local files=0 same=0 sessions=0 actions=0 replayed=0 rebuilt=0 written=0
  for folder in Tests/*Tests; do
    target=${folder##*/}
    for file in "$folder"/*.swift; do
      name=${file##*/}
      [ "$name" = ExampleTraces.swift ] && continue
      suites=$(grep -oE '^(@MainActor )?(final )?(struct|class) [A-Za-z0-9_]+' "$file" | awk '{print $NF}' | paste -sd'|')
      [ -n "$suites" ] || continue
      mkdir -p "Traces/$name"
      # NB: With a deadline: a test that waits for good is a result, not a stalled measure. One
      # test at a time, as unrecorded (above).
      TCATRACE_EXAMPLE_TRACES="$work/Traces/$name" timeout 600 swift test --skip-build \
        --no-parallel --filter "^$target\.($suites)/" > "Recorded/$name.log" 2>&1 || true
      files=$((files + 1))
      local plain recorded
      plain=$(grep -oE "Test run with [0-9]+ tests?.* (passed|failed)" "Results/$name.log" | sed -E 's/ after.*//' | tail -1)
      recorded=$(grep -oE "Test run with [0-9]+ tests?.* (passed|failed)" "Recorded/$name.log" | sed -E 's/ after.*//' | tail -1)
      if [ "$plain" = "$recorded" ]; then
        same=$((same + 1))
      else
        echo "  recorded $name: '${recorded:-no result}', where it was '${plain:-no result}' (see $work/Recorded/$name.log)"
      fi
      # Each session: replayed, rebuilt at every step, made a test.
      for trace in "Traces/$name"/*.db; do
        [ -e "$trace" ] || continue
        sessions=$((sessions + 1))
        local count base line call initial dependencies prelude rest arguments
        count=$("$tcatrace" sql "$trace" "SELECT count(*) FROM actions" --format csv | tail -1)
        actions=$((actions + count))
        if "$tcatrace" replay "$trace" > /dev/null 2> "$trace.replay"; then
          replayed=$((replayed + 1))
        else
          echo "  ${trace#Traces/}: replay: $(head -1 "$trace.replay")"
        fi
        local step failed=""
        for step in $(seq 0 "$count"); do
          if ! "$tcatrace" state "$trace" --at "$step" > /dev/null 2> "$trace.state" || [ -s "$trace.state" ]; then
            failed="#$step: $(head -1 "$trace.state")"
            break
          fi
        done
        if [ -z "$failed" ]; then rebuilt=$((rebuilt + 1)); else echo "  ${trace#Traces/}: state at $failed"; fi
        # NB: The store's call in the test's source gives what a state that is not `Encodable`
        # leaves out of the trace: its initial state, and the dependencies the effects used.
        base=${trace##*/}
        base=${base%.db}
        line=${base%-*}
        line=${line##*-}
        call=$(python3 "$here/test_store_call.py" "$file" "$line" | tr '\0' '\1')
        initial=${call%%$'\1'*}
        rest=${call#*$'\1'}
        dependencies=${rest%%$'\1'*}
        prelude=""
        [[ "$rest" == *$'\1'* ]] && prelude=${rest#*$'\1'}
        arguments=(test "$trace" --name "$(test_name "$base")" --import "${target%Tests}")
        [ -n "$initial" ] && arguments+=(--initial-state "$initial")
        [ -n "$dependencies" ] && arguments+=(--dependencies "$dependencies")
        mkdir -p Tests/GeneratedTests
        if "$tcatrace" "${arguments[@]}" > "Tests/GeneratedTests/$base.swift" 2> "Generated/$base.notes"; then
          written=$((written + 1))
          # NB: What the store's call names the example's test declares before it.
          if [ -n "$prelude" ]; then
            python3 "$here/test_store_call.py" --insert "Tests/GeneratedTests/$base.swift" "$prelude"
          fi
        else
          echo "  ${trace#Traces/}: tcatrace test: $(head -1 "Generated/$base.notes")"
          rm "Tests/GeneratedTests/$base.swift"
        fi
      done
    done
  done
  # The tests written, built (each that does not compile left out, with its first error) and run.
  local compiled=0 passed=0
  if [ -n "$(ls Tests/GeneratedTests 2>/dev/null)" ]; then
    build_leaving_out GeneratedTests Tests/GeneratedTests || true
    # NB: The tests' bundle, with the tests that compile linked in.
    manifest
    swift build --build-tests > Logs/generated.log 2>&1 || true
    for file in Failing/GeneratedTests/*; do
      [ -e "$file" ] && echo "  written test ${file##*/}: does not compile: $(cat "$file")"
    done
    for file in Tests/GeneratedTests/*.swift; do
      [ -e "$file" ] || continue
      compiled=$((compiled + 1))
      name=${file##*/}
      timeout 300 swift test --skip-build --filter "$(test_name "${name%.swift}")" \
        > "Generated/${name%.swift}.log" 2>&1 || true
      if grep -qE "Test run with 1 test .*passed" "Generated/${name%.swift}.log"; then
        passed=$((passed + 1))
      else
        echo "  written test $name: fails: $(grep -m1 -E "recorded an issue|error" "Generated/${name%.swift}.log" | cut -c1-300)"
      fi
    done
  fi
  echo "Recorded: $same of $files test files end as they do unrecorded; $sessions sessions, $actions actions;" \
    "$replayed replay and $rebuilt rebuild at every step; tcatrace test writes $written tests, $compiled compile and $passed pass."
  # NB: What recording must never do fails the measure (CI runs it so): change a test's outcome,
  # leave no session, record a session that does not replay, rebuild or become a test; and,
  # with MINIMUM_COMPILING, fewer written tests compiling. How many pass is reported, not
  # checked: those that wait on what the example's test drives fail by design, within TCA's
  # one second.
  if ! [[ "${MINIMUM_COMPILING:-0}" =~ ^[0-9]+$ ]]; then
    echo "measure.sh: MINIMUM_COMPILING is a number of tests, not '$MINIMUM_COMPILING'" >&2
    return 2
  fi
  if [ "$same" != "$files" ] || [ "$sessions" = 0 ] || [ "$replayed" != "$sessions" ] ||
    [ "$rebuilt" != "$sessions" ] || [ "$written" != "$sessions" ] ||
    [ "$compiled" -lt "${MINIMUM_COMPILING:-0}" ]; then
    echo "measure.sh: the recorded examples fell short (fewer than ${MINIMUM_COMPILING:-0} written tests compiling is short too): see the lines above" >&2
    return 1
  fi
}
if [ "$host" = tca ] && [ "${RECORD:-1}" = 1 ]; then record_examples; fi
