"""Reads a `TestStore(initialState: …) { … } withDependencies: { … }` call of a TCA example's test,
for Tests/TCAExamples/measure.sh: what `tcatrace test` needs to write a test of the session the
store recorded, and cannot read from a trace whose state is not `Encodable`.

Prints the call's initial state expression and its dependencies' code (the `withDependencies`
closure's body, or nothing), separated by a NUL byte, each as the test's source has it. Reads
brackets, strings and comments; good enough for TCA's Examples, not a Swift parser.

    python3 test_store_call.py FILE LINE
"""
import sys


def scan(text, start, stop_chars):
    """The index of the first of `stop_chars` at depth 0 from `start`, past strings and comments."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if text.startswith('//', i):
            i = text.find('\n', i)
            if i < 0:
                return len(text)
            continue
        if text.startswith('"""', i):
            end = text.find('"""', i + 3)
            i = len(text) if end < 0 else end + 3
            continue
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == '\\' else 1
            i += 1
            continue
        if depth == 0 and c in stop_chars:
            return i
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        i += 1
    return len(text)


def call(text, line):
    offset = sum(len(l) + 1 for l in text.split('\n')[:line - 1])
    start = text.find('TestStore(', offset)
    if start < 0:
        return None
    open_paren = start + len('TestStore')
    close_paren = scan(text, open_paren + 1, ')')
    arguments = text[open_paren + 1:close_paren]
    label = arguments.find('initialState:')
    if label < 0:
        return None
    value_start = label + len('initialState:')
    value_end = scan(arguments, value_start, ',')
    initial = ' '.join(arguments[value_start:value_end].split())
    # The trailing closures: the reducer's, then `withDependencies:`'s.
    rest = close_paren + 1
    brace = scan(text, rest, '{')
    reducer_end = scan(text, brace + 1, '}')
    after = text[reducer_end + 1:]
    dependencies = ''
    stripped = after.lstrip()
    if stripped.startswith('withDependencies:'):
        body_start = reducer_end + 1 + (len(after) - len(stripped)) + len('withDependencies:')
        body_open = scan(text, body_start, '{')
        body_close = scan(text, body_open + 1, '}')
        body = text[body_open + 1:body_close]
        lines = [l for l in body.split('\n') if l.strip()]
        indent = min((len(l) - len(l.lstrip()) for l in lines), default=0)
        dependencies = '\n'.join(l[indent:].rstrip() for l in lines)
    return initial, dependencies


if __name__ == '__main__':
    found = call(open(sys.argv[1]).read(), int(sys.argv[2]))
    if found:
        sys.stdout.write(found[0] + '\0' + found[1])
