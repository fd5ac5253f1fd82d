"""Strips a TCA example's Swift file down to its reducer code, for Tests/TCAExamples/measure.sh.

Drops the top-level declarations that are views or UI (a type conforming to View, App, Scene or a
UIKit class; extensions of SwiftUI types; previews), and the imports of XCTest and
SwiftUINavigation (SwiftUI helpers, for the views); swaps `import ComposableArchitecture` and
`import SwiftUI` for `import Composable` (which brings Foundation, as SwiftUI does on Apple's
platforms, and stands in for the SwiftUI values reducers keep, such as `Color`), and
`import UIKit` for `import Foundation`. With `--host tca` (the examples built against
pointfreeco's TCA, patched for Linux), `import ComposableArchitecture` is kept, and `import
SwiftUI` becomes `import Foundation`: nothing stands in for SwiftUI's values there; and each file
imports FoundationNetworking where it exists, as `Composable` re-exports it: on Linux
`URLSession` is there, on Apple's platforms in Foundation.
Everything else is kept as it is written. Declarations are found by brace depth, with strings
and comments skipped; good enough for TCA's Examples, not a Swift parser.

    python3 strip_views.py [--host composable|tca] SOURCE DESTINATION
"""
import pathlib
import re
import sys

UI_DECLARATION = re.compile(
    r'(:\s*[^{]*\b(View|App|Scene|PreviewProvider|UIViewController|UIViewRepresentable'
    r'|UIApplicationDelegate|NSObject|ViewModifier|Shape|[A-Z][A-Za-z]*Style)\b'
    r'|#Preview|some View'
    r'|\bextension\s+(View|Text|Binding|Image|Color|Font|UIView|UIViewController'
    r'|[A-Z][A-Za-z]*Style)\b)'
)
DROPPED_IMPORT = re.compile(
    r'import (SwiftUI|SwiftUINavigation|UIKit|XCTest|ComposableArchitecture)\b'
)


class Scanner:
    """Counts braces line by line, outside strings and comments."""

    def __init__(self):
        self.in_block_comment = False
        self.string = None

    def depth_change(self, line):
        change, i = 0, 0
        while i < len(line):
            if self.in_block_comment:
                if line.startswith('*/', i):
                    self.in_block_comment = False
                    i += 2
                else:
                    i += 1
                continue
            if self.string:
                if self.string == '"""' and line.startswith('"""', i):
                    self.string = None
                    i += 3
                elif line[i] == '\\':
                    i += 2
                else:
                    if line[i] == '"' and self.string == '"':
                        self.string = None
                    i += 1
                continue
            if line.startswith('//', i):
                break
            if line.startswith('/*', i):
                self.in_block_comment = True
                i += 2
            elif line.startswith('"""', i):
                self.string = '"""'
                i += 3
            elif line[i] == '"':
                self.string = '"'
                i += 1
            else:
                change += {'{': 1, '}': -1}.get(line[i], 0)
                i += 1
        return change


def strip(text, host='composable'):
    lines = text.split('\n')
    kept, scanner, i = [], Scanner(), 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if DROPPED_IMPORT.match(stripped):
            module = stripped.split()[1]
            if host == 'tca' and module == 'ComposableArchitecture':
                kept.append(line)
            elif host == 'tca' and module == 'SwiftUI':
                kept.append('import Foundation')
            elif module in ('ComposableArchitecture', 'SwiftUI'):
                kept.append('import Composable')
            elif module == 'UIKit':
                kept.append('import Foundation')
            i += 1
            continue
        if stripped == '' or stripped.startswith('//'):
            kept.append(line)
            i += 1
            continue
        # A top-level declaration: its header runs to its first brace, its body to the brace
        # that closes it.
        start, depth, header, end = i, 0, '', i
        while True:
            header += lines[end] + '\n'
            depth += scanner.depth_change(lines[end])
            if '{' in lines[end] or depth != 0 or end + 1 >= len(lines):
                break
            following = lines[end + 1].strip()
            if not (lines[end].rstrip().endswith(',') or lines[end].strip().startswith('@')
                    or following.startswith(('where', '.', ':'))):
                break
            end += 1
        while depth > 0 and end + 1 < len(lines):
            end += 1
            depth += scanner.depth_change(lines[end])
        if not UI_DECLARATION.search(header.split('{')[0]):
            kept.extend(lines[start:end + 1])
        i = end + 1
    if host == 'tca':
        kept[:0] = ['#if canImport(FoundationNetworking)', '  import FoundationNetworking', '#endif']
    return '\n'.join(kept)


if __name__ == '__main__':
    arguments, host = sys.argv[1:], 'composable'
    if arguments[:1] == ['--host']:
        host, arguments = arguments[1], arguments[2:]
    if host not in ('composable', 'tca') or len(arguments) != 2:
        sys.exit('usage: strip_views.py [--host composable|tca] SOURCE DESTINATION')
    source, destination = arguments
    pathlib.Path(destination).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(destination).write_text(strip(pathlib.Path(source).read_text(), host))
