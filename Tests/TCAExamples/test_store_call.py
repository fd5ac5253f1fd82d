"""Reads a `TestStore(initialState: …) { … } withDependencies: { … }` call of a TCA example's test,
for Tests/TCAExamples/measure.sh: what `tcatrace test` needs to write a test of the session the
store recorded, and cannot read from a trace whose state is not `Encodable`.

Prints the call's initial state expression, its dependencies' code (the `withDependencies`
closure's body, or nothing), and the statements of the test before the store's (the
declarations the call names: `let results = …`, `struct FactError: Error {}`; nothing when
they hold another store), separated by NUL bytes, each as the test's source has it. Reads
brackets, strings and comments; good enough for TCA's Examples, not a Swift parser.

    python3 test_store_call.py FILE LINE

With `--insert TEST PRELUDE`, puts those statements into the test `tcatrace test` wrote, before
its store, with a comment saying where they come from.

    python3 test_store_call.py --insert TEST PRELUDE
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
        dependencies = dedented(body)
    return initial, dependencies, prelude(text, start)


def dedented(body):
    lines = [l for l in body.split('\n') if l.strip()]
    indent = min((len(l) - len(l.lstrip()) for l in lines), default=0)
    return '\n'.join(l[indent:].rstrip() for l in lines)


def prelude(text, call_start):
    """The statements of the function around `call_start` before the line it is on."""
    statement = text.rfind('\n', 0, call_start) + 1
    function = text.rfind('func ', 0, statement)
    if function < 0:
        return ''
    body_open = scan(text, function, '{')
    if body_open >= statement:
        return ''
    before = text[body_open + 1:statement]
    # NB: What comes before another store of the same test is that store's test.
    if 'TestStore(' in before:
        return ''
    return dedented(before)


def insert(path, statements):
    text = open(path).read()
    store = text.find('  let store = TestStore(')
    if store < 0:
        return
    lines = ['  // The declarations the store uses, copied by measure.sh from the example\'s test.']
    lines += ['  ' + line if line else '' for line in statements.split('\n')]
    open(path, 'w').write(text[:store] + '\n'.join(lines) + '\n' + text[store:])


if __name__ == '__main__' and sys.argv[1] == '--insert':
    insert(sys.argv[2], sys.argv[3])
elif __name__ == '__main__':
    found = call(open(sys.argv[1]).read(), int(sys.argv[2]))
    if found:
        sys.stdout.write('\0'.join(found))
