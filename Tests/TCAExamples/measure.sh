#!/usr/bin/env bash
# Measures how much of TCA's own Examples compiles against `Composable` (issue #43): each app's
# Swift files, with their views stripped (strip_views.py drops SwiftUI and UIKit declarations
# and swaps `import ComposableArchitecture` for `import Composable`), built as one module per
# app in a package of its own that depends on this one by path, in the Swift 6 language mode.
# Prints, per app, the files set aside because they import a module Linux lacks, and each file
# that has an error, with its first error.
#
#   REAL_TCA=DIR Tests/TCAExamples/measure.sh
#
# DIR is a folder prepared by ../shared/real-tca/prepare.sh (it holds TCA's sources, Examples
# included); without it the measure is skipped with a message. Nothing of TCA's is kept: the
# stripped copies are written to a temporary folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
examples="${REAL_TCA:-}/swift-composable-architecture/Examples"
if [ -z "${REAL_TCA:-}" ] || [ ! -d "$examples" ]; then
  echo "Tests/TCAExamples/measure.sh: skipped: set REAL_TCA to a folder prepared by ../shared/real-tca/prepare.sh"
  exit 0
fi

work=${MEASURE_DIR:-$(mktemp -d -t tcatrace-examples.XXXXXX)}
rm -rf "$work/Sources" "$work/SetAside"
# Modules Linux does not have (Apple's frameworks), or that TCA's apps have and `Composable`
# does not re-export (XCTestDynamicOverlay, IssueReporting's old name).
unavailable="AVFoundation|Combine|Speech|SwiftUINavigation|XCTestDynamicOverlay"
apps=(
  "CaseStudies:CaseStudies/SwiftUICaseStudies"
  "Search:Search/Search"
  "SpeechRecognition:SpeechRecognition/SpeechRecognition"
  "SyncUps:SyncUps/SyncUps"
  "TicTacToe:TicTacToe/tic-tac-toe/Sources"
  "Todos:Todos/Todos"
  "VoiceMemos:VoiceMemos/VoiceMemos"
)
targets=""
for app in "${apps[@]}"; do
  name=${app%%:*}
  folder=${app#*:}
  # NB: TicTacToe's view modules (…SwiftUI, …UIKit) and live clients are left out: views.
  (cd "$examples/$folder" && find . -name '*.swift' | grep -v -E 'SwiftUI/|UIKit/|Live/') |
    while read -r file; do
      flat=$(printf '%s' "${file#./}" | tr '/' '_')
      # NB: A file that imports a module Linux does not have is set aside, and named.
      if module=$(grep -m1 -oE "^\s*(@[a-zA-Z]+ )?import ($unavailable)\b" "$examples/$folder/$file"); then
        mkdir -p "$work/SetAside/$name"
        echo "${module##*import }" > "$work/SetAside/$name/$flat"
        continue
      fi
      python3 "$here/strip_views.py" "$examples/$folder/$file" "$work/Sources/$name/$flat"
    done
  targets+="    .target(name: \"$name\", dependencies: [.product(name: \"Composable\", package: \"TCATrace\")]),"$'\n'
done

# NB: Depended on through a link named as an app names the package.
ln -sfn "$root" "$work/TCATrace"
cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "TCAExamples",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(path: "TCATrace")],
  targets: [
$targets  ],
  swiftLanguageModes: [.v6]
)
MANIFEST

cd "$work"
for app in "${apps[@]}"; do
  name=${app%%:*}
  total=$(find "Sources/$name" -name '*.swift' | wc -l)
  if [ -d "SetAside/$name" ]; then
    for file in SetAside/"$name"/*; do
      echo "$name: set aside ${file##*/} (imports $(cat "$file"))"
    done
  fi
  if swift build --target "$name" > "$work/$name.log" 2>&1; then
    echo "$name: all $total files compile"
    continue
  fi
  failing=$(grep -E "^$work/Sources/$name/[^:]+:[0-9]+:[0-9]+: error:" "$work/$name.log" |
    sed -E "s|^$work/Sources/$name/([^:]+):[0-9]+:[0-9]+: error: (.*)|\1: \2|" | awk -F': ' '!seen[$1]++')
  echo "$name: $(printf '%s\n' "$failing" | grep -c .) of $total files have errors"
  printf '%s\n' "$failing" | sed 's/^/  /'
done
