#!/usr/bin/env bash
# Records the example app and the library example on pointfreeco's TCA (this package, through
# TCATrace's `ComposableArchitecture` trait) and on `Composable` (`tcatrace-fixture`), and
# compares the two recordings with `tcatrace diff`, the routes' state paths and `tcatrace
# leaks`; records them, and a vault of changing secrets, with a stripped copy of the program
# too, and compares those with `tcatrace diff` and searches them for the secrets; then writes
# the tests `tcatrace test` makes of the app's, the library's and the game's sessions on TCA
# (the game: an app written as TCA's examples are, without the boundaries), compares them with
# the ones kept in Tests/RealTCATests, and runs those against TCA's `TestStore` (issues #41,
# #58, #71).
#
#   REAL_TCA=DIR Tests/RealTCA/check.sh
#
# DIR is a folder prepared by ../shared/real-tca/prepare.sh (the patched TCA and its three
# dependencies, with `set-mirrors.sh`); see Documentation/RealTCA.md. Without it, the check is
# skipped with a message: CI cannot fetch TCA. Exit 0 when both sessions are alike, 1 when they
# differ (the differences are printed), 2 when something could not be built or run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ -z "${REAL_TCA:-}" ] || [ ! -f "${REAL_TCA}/set-mirrors.sh" ]; then
  echo "Tests/RealTCA/check.sh: skipped: set REAL_TCA to a folder prepared by ../shared/real-tca/prepare.sh (see Documentation/RealTCA.md)"
  exit 0
fi

work=$(mktemp -d -t tcatrace-realtca.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Runs a recording program with a deadline of `$1` seconds (where `timeout` exists): one that
# waits for good fails the check rather than stalling it.
deadline() {
  local seconds=$1
  shift
  command -v timeout > /dev/null || { "$@"; return; }
  local code=0
  timeout "$seconds" "$@" || code=$?
  if [ "$code" = 124 ]; then echo "Tests/RealTCA/check.sh: $1 ran past ${seconds} s and was stopped." >&2; fi
  return "$code"
}

cd "$here"
bash "$REAL_TCA/set-mirrors.sh" > /dev/null
swift build --product RealTCADemo 2>&1 | tail -n 1 || exit 2
deadline 300 .build/debug/RealTCADemo "$work/tca.db" || exit 2

cd "$root"
swift build --product tcatrace 2>&1 | tail -n 1 || exit 2
swift build --product tcatrace-fixture 2>&1 | tail -n 1 || exit 2
.build/debug/tcatrace-fixture record-demo "$work/composable.db" > /dev/null || exit 2

status=0
for session in 1 2; do
  .build/debug/tcatrace diff "$work/composable.db" "$work/tca.db" --session "$session" --other-session "$session" || status=1
done
# The library example (Tests/Fixtures/Library): an enum destination with a feature and an
# alert, a stack, bindings, a cancelled effect, a dependency and a leak.
deadline 300 "$here/.build/debug/RealTCADemo" --library "$work/tca.db" || exit 2
.build/debug/tcatrace-fixture record-library "$work/composable.db" > /dev/null || exit 2
.build/debug/tcatrace diff "$work/composable.db" "$work/tca.db" --session 3 --other-session 3 || status=1

# Each session's end counts the actions its store's thread analysed itself, the analysis
# backlog at its bound (issue #75): none in the app's and the leaky example's sessions, whose
# actions come a few at a time, where the writer analyses them; not counted in the library's,
# whose state holds a shared value, so that its actions are analysed on the store's thread.
counted=$(.build/debug/tcatrace sql "$work/tca.db" "SELECT group_concat(coalesce(backlog_fallbacks, 'none'), ' ') FROM (SELECT backlog_fallbacks FROM sessions ORDER BY id)" --format csv | tail -n 1)
if [ "$counted" != "0 0 none" ]; then
  echo "The sessions recorded on TCA count their fallbacks as '$counted', not '0 0 none'."
  status=1
fi
# Each session's state at every step, as `tcatrace state` rebuilds it from the file.
for session in 1 2 3; do
  count=$(.build/debug/tcatrace sql "$work/tca.db" "SELECT count(*) FROM actions WHERE session_id = $session" --format json | tr -dc '0-9')
  for step in $(seq 0 "${count:-0}"); do
    if ! diff <(.build/debug/tcatrace state "$work/composable.db" --session "$session" --at "$step") \
      <(.build/debug/tcatrace state "$work/tca.db" --session "$session" --at "$step") > /dev/null; then
      echo "tcatrace state --session $session --at $step differs."
      status=1
    fi
  done
done

# The flight journal on TCA (issue #73): a process that ends in a reducer leaves the action it
# ended in, and those its writer had not committed, for `tcatrace` to read; the crash
# reporter's handler installed before the recorder is called with the signal that ended it.
for how in fatalError abortInEffect; do
  code=0
  # NB: In a subshell without core dumps, whose shell reports the signal to /dev/null.
  (ulimit -c 0; deadline 120 "$here/.build/debug/RealTCADemo" --crash "$work/crash-$how.db" "$how" \
    > "$work/crash-$how.out") 2> /dev/null || code=$?
  signal=$((code - 128))
  if [ "$code" -le 128 ] || ! grep -q -x "handler 0*$signal" "$work/crash-$how.out"; then
    echo "RealTCADemo --crash $how: ended with $code; it printed: $(cat "$work/crash-$how.out")"
    status=1
  fi
  ended=$(.build/debug/tcatrace replay "$work/crash-$how.db" --format jsonl --no-diff \
    | tail -n 1 | grep -o '"seq":6,.*"flight":"[a-z_]*"' | grep -o '"flight":"[a-z_]*"' || true)
  case "$how" in
    fatalError) expected='"flight":"ended_process"' ;;
    *) expected='"flight":"returned"' ;;
  esac
  # NB: After an abort in an effect, action 6 may have been committed.
  if [ "$ended" != "$expected" ] && ! { [ "$how" = abortInEffect ] && [ -z "$ended" ]; }; then
    echo "tcatrace replay crash-$how.db: action 6 is not read as the journal's ($expected):"
    .build/debug/tcatrace replay "$work/crash-$how.db" --no-diff
    status=1
  fi
done
if ! .build/debug/tcatrace sessions "$work/crash-fatalError.db" | grep -q 'ended in #6 crashButtonTapped'; then
  echo "tcatrace sessions crash-fatalError.db does not say the process ended in #6."
  status=1
fi

# Stripped programs (issue #59): QA's builds have no symbol table, which names key paths into
# `@ObservableState` (computed properties) where the program can; without it they are named
# from the types' reflection metadata and the states' values. The same sessions recorded by a
# stripped copy of the program are alike by `tcatrace diff`, redacted values included; and the
# vault's secrets, each changed from one secret to another (a property beside another of its
# type, inside an optional, inside a presented child), are in neither file.
if command -v strip > /dev/null; then
  cp "$here/.build/debug/RealTCADemo" "$work/RealTCADemo-stripped"
  strip "$work/RealTCADemo-stripped"
  deadline 300 "$work/RealTCADemo-stripped" "$work/stripped.db" || exit 2
  deadline 300 "$work/RealTCADemo-stripped" --library "$work/stripped.db" || exit 2
  for session in 1 2 3; do
    .build/debug/tcatrace diff "$work/tca.db" "$work/stripped.db" --session "$session" --other-session "$session" || status=1
  done
  deadline 300 "$here/.build/debug/RealTCADemo" --vault "$work/vault.db" || exit 2
  deadline 300 "$work/RealTCADemo-stripped" --vault "$work/vault-stripped.db" || exit 2
  .build/debug/tcatrace diff "$work/vault.db" "$work/vault-stripped.db" || status=1
  for secret in alpha-1 bravo-2 river-3 stone-4 pin-4711 pin-0815; do
    for file in "$work/vault.db" "$work/vault-stripped.db"; do
      if grep -a -q -F "$secret" "$file"; then
        echo "$file holds the secret '$secret'."
        status=1
      fi
    done
  done
else
  echo "Tests/RealTCA/check.sh: strip is not here: stripped programs were not recorded."
fi

# An app that names no trait (an Xcode app project cannot): it adds `TCAHost`, whose only job
# is to add this package with the `ComposableArchitecture` trait. It records the library's
# session on TCA, alike with the one above (issue #59).
mkdir -p "$work/XcodeLike/Sources/App"
ln -s "$root" "$work/TCATrace"
ln -s "$root/Tests/Fixtures/Library" "$work/XcodeLike/Sources/LibraryExample"
cat > "$work/XcodeLike/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "XcodeLike",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [
    .package(path: "../TCATrace/TCAHost"),
  ],
  targets: [
    // NB: The library's sources import `TCATrace`, which `TCATraceOnTCA` builds and re-exports.
    .target(name: "LibraryExample", dependencies: [.product(name: "TCATraceOnTCA", package: "TCAHost")]),
    .executableTarget(
      name: "App",
      dependencies: ["LibraryExample", .product(name: "TCATraceOnTCA", package: "TCAHost")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
MANIFEST
cat > "$work/XcodeLike/Sources/App/main.swift" <<'SWIFT'
import Foundation
import LibraryExample
import TCATraceOnTCA

// NB: TCA's main-thread checks want the main actor served from the main thread's run loop.
Task { @MainActor in
  do {
    let recorder = try TraceRecorder(path: CommandLine.arguments[1], session: "library", policy: .recordOnly)
    await LibraryScript.record(to: recorder)
    try await recorder.close()
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("App: \(error)\n".utf8))
    exit(1)
  }
}
RunLoop.main.run()
SWIFT
# NB: Built where it was built before (the package's folder is new each run): incrementally.
(cd "$work/XcodeLike" && bash "$REAL_TCA/set-mirrors.sh" > /dev/null \
  && swift build --product App --scratch-path "$here/.build-xcode-like" 2>&1 | tail -n 1) || exit 2
deadline 300 "$here/.build-xcode-like/debug/App" "$work/xcode-like.db" > /dev/null || exit 2
.build/debug/tcatrace diff "$work/tca.db" "$work/xcode-like.db" --session 3 --other-session 1 || status=1
host=$(.build/debug/tcatrace sql "$work/xcode-like.db" "SELECT recorder_version FROM sessions" --format csv | tail -n 1)
case "$host" in
  *+ComposableArchitecture) ;;
  *) echo "The app that names no trait recorded on '$host', not on TCA."; status=1 ;;
esac

# The same app adding `TCATrace` beside `TCAHost` turns both traits on: the build stops with
# the error that names them (issue #60).
sed -i 's|    .package(path: "../TCATrace/TCAHost"),|    .package(path: "../TCATrace"),\n&|' "$work/XcodeLike/Package.swift"
both=$(cd "$work/XcodeLike" && swift build --product App --scratch-path "$here/.build-xcode-like" 2>&1) && {
  echo "An app that adds TCATrace beside TCAHost built: both traits were on without an error."
  status=1
}
grep -q "traits 'ComposableArchitecture' and 'BundledComposable' are both on" <<< "$both" || {
  echo "An app that adds TCATrace beside TCAHost did not fail with the error that names both traits:"
  tail -n 5 <<< "$both"
  status=1
}

# NB: `diff` compares actions and state changes; the leaks are compared as `leaks` prints them.
# The state path of the feature each action was routed to: the same on both hosts, but where
# `Composable` routes an alert's action into the alert (`todos.alert`), which has no feature of
# its own on TCA, whose derived route stops at the feature presenting it (`todos`).
route_query="SELECT session_id, seq, replace(state_path, 'todos.alert', 'todos') FROM actions ORDER BY session_id, seq"
if ! diff -u --label Composable --label TCA \
  <(.build/debug/tcatrace sql "$work/composable.db" "$route_query" --format csv) \
  <(.build/debug/tcatrace sql "$work/tca.db" "$route_query" --format csv); then
  echo "The routes' state paths differ."
  status=1
fi

.build/debug/tcatrace leaks "$work/composable.db" --session all > "$work/composable-leaks.txt" || true
.build/debug/tcatrace leaks "$work/tca.db" --session all > "$work/tca-leaks.txt" || true
if ! diff -u --label Composable --label TCA "$work/composable-leaks.txt" "$work/tca-leaks.txt"; then
  echo "The leaks differ."
  status=1
fi

# The test of the app's session on TCA, nothing redacted, as the main suite keeps the one of
# its session on Composable (TCATraceExamplesTests/Generated).
mkdir -p "$work/unredacted"
deadline 300 "$here/.build/debug/RealTCADemo" "$work/unredacted/demo.db" --unredacted || exit 2
kept="$here/Tests/RealTCATests/DemoAppSessionTest.swift"
(cd "$work/unredacted" && "$root/.build/debug/tcatrace" test demo.db --session 1 \
  --name replaysDemoAppSession --import RealTCAExamples \
  --dependencies 'DemoScript.immediateDependencies(&$0)' > test.swift 2> /dev/null) || exit 2
if ! diff -u --label kept --label written "$kept" "$work/unredacted/test.swift"; then
  echo "The test tcatrace test writes differs from the one kept in Tests/RealTCATests."
  status=1
fi
# The test of the library example's session on TCA, as the main suite keeps the one of its
# session on Composable: a shared value that an action sent at once changes is asserted at
# the send that began its processing, where TestStore sees it (issue #58).
deadline 300 "$here/.build/debug/RealTCADemo" --library "$work/unredacted/library.db" || exit 2
kept="$here/Tests/RealTCATests/LibrarySessionTest.swift"
(cd "$work/unredacted" && "$root/.build/debug/tcatrace" test library.db --session 1 \
  --name replaysLibrarySession --import LibraryExample \
  --dependencies '$0.continuousClock = ImmediateClock()' --initial-state 'Library.State()' \
  > library-test.swift 2> /dev/null) || exit 2
if ! diff -u --label kept --label written "$kept" "$work/unredacted/library-test.swift"; then
  echo "The library's test tcatrace test writes differs from the one kept in Tests/RealTCATests."
  status=1
fi
# The app written as TCA's examples are, without the boundaries (issue #71): recorded alike on
# both hosts (its children's actions and bindings theirs, the root named `Game`), and the test
# `tcatrace test` writes of it (changes made through the enum state's case with `modify`, the
# reducer `Game.body`) is the one kept, which runs against TCA's `TestStore` below.
deadline 300 "$here/.build/debug/RealTCADemo" --game "$work/unredacted/game.db" || exit 2
"$root/.build/debug/tcatrace-fixture" record-game "$work/composable-game.db" > /dev/null || exit 2
"$root/.build/debug/tcatrace" diff "$work/composable-game.db" "$work/unredacted/game.db" || status=1
kept="$here/Tests/RealTCATests/GameSessionTest.swift"
(cd "$work/unredacted" && "$root/.build/debug/tcatrace" test game.db --session 1 \
  --name replaysGameSession --import LibraryExample \
  --initial-state 'Game.State.signIn(SignIn.State())' --dependencies '$0.uuid = .incrementing' \
  > game-test.swift 2> /dev/null) || exit 2
if ! diff -u --label kept --label written "$kept" "$work/unredacted/game-test.swift"; then
  echo "The game's test tcatrace test writes differs from the one kept in Tests/RealTCATests."
  status=1
fi
# Driving the app on TCA (issue #74), with RealTCADemo as the app: drive_check NAME SCRIPT runs
# one of the checks the main suite runs on Composable (LiveDriveTests), and says how it went.
drive_check() {
  local name=$1 script=$2 folder="$work/${2%.py}"
  mkdir -p "$folder"
  if ! deadline 300 python3 "$root/Tests/tcatraceTests/Python/$script" \
    "$root/.build/debug/tcatrace" "$here/.build/debug/RealTCADemo --drive" "$folder" \
    > "$folder/report.json"; then
    echo "$script did not end well on TCA."
    status=1
  elif ! grep -q '"failures": \[\]' "$folder/report.json"; then
    echo "$name failed: $(cat "$folder/report.json")"
    status=1
  else
    echo "$name: $(grep -o '": true' "$folder/report.json" | wc -l) checks hold."
  fi
}
(cd "$root" && swift build --product tcatrace-serve 2>&1 | tail -n 1) || exit 2
# The page of `tcatrace serve --live` jumps the app, sends it an action, locks and unlocks it and
# brings it back, in Chromium, and the app's own state shows each.
if python3 -c "import playwright.sync_api" 2> /dev/null && [ -x /usr/bin/chromium ]; then
  drive_check "Driving the app on TCA" drive_browser_check.py
else
  echo "Tests/RealTCA/check.sh: Playwright or Chromium is not here: driving the app on TCA in a browser was not checked."
fi
# The same through the page's API (no browser): a jump past the 256 states the app keeps, from
# the trace's JSON; an action that does not decode, refused with the reason; and the server's
# file alike with the app's own by `tcatrace diff`.
drive_check "Driving the app on TCA through the API" drive_api_check.py
cd "$here"
# NB: The library's test changes a shared value (`.inMemory`) in a `TestStore`, where
# swift-sharing 2.8's `Shared.withLock` reads the value it is modifying (to snapshot it): on
# Linux, whose `_PersistentReference.value` is a plain stored property (on Apple platforms it
# has a `willSet`, so `withLock` modifies a copy), that is an exclusivity violation, which a
# debug build traps on. It runs in a build of its own without that runtime check.
if swift test --skip replaysLibrarySession > "$work/test.log" 2>&1 \
  && swift test --scratch-path .build-unchecked -Xswiftc -enforce-exclusivity=unchecked \
    --filter replaysLibrarySession >> "$work/test.log" 2>&1; then
  # NB: A run with known issues (a check that a broken reducer fails) is marked "━", not "✔".
  grep -E '^. Test run with' "$work/test.log" || true
else
  grep -E '✘|error:' "$work/test.log"
  echo "The kept tests fail against TCA's TestStore."
  status=1
fi
exit $status
