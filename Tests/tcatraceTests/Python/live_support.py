"""What the checks of `tcatrace serve --live` in a browser share: their report, reading a
process's lines with a deadline, and polling the page."""

import json
import os
import select
import subprocess
import time


class Report:
    """Each check's result, and what went wrong in those that failed."""

    def __init__(self):
        self.results = {}
        self.failures = []

    def check(self, name, condition, detail=""):
        self.results[name] = bool(condition)
        if not condition:
            self.failures.append(f"{name}: {detail}")

    def json(self):
        return {**self.results, "failures": self.failures}


def read_line(stream, deadline):
    """The next line of a process's `stream`, `None` at its end or past `deadline` (a
    `time.monotonic()` value): a process that prints nothing does not hold the check."""
    line = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([stream], [], [], left)
        if not ready:
            return None
        byte = os.read(stream.fileno(), 1)
        if not byte:
            return line.decode() if line else None
        if byte == b"\n":
            return line.decode()
        line += byte


def wait_until(page, expression, timeout_ms):
    """Polls `expression` in the page until it is true (the page's CSP forbids `eval`)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        if page.evaluate(f"() => Boolean({expression})"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def start_live_server(tcatrace, directory):
    """Starts `tcatrace serve --live DIRECTORY`: the process, the page's URL and the
    `TCATRACE_DEBUGGER` value it printed (`None` for what it did not print within 60 s)."""
    server = subprocess.Popen(
        [tcatrace, "serve", "--live", directory],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url, debugger = None, None
    deadline = time.monotonic() + 60
    while url is None or debugger is None:
        line = read_line(server.stdout, deadline)
        if line is None:
            break
        if line.startswith("Serving "):
            url = line.split(" at ", 1)[1].strip()
        if line.startswith("TCATRACE_DEBUGGER="):
            debugger = line.strip().split("=", 1)[1]
    return server, url, debugger


def app_line(app, prefix):
    """The app's next line that begins with `prefix`, without it; `None` within 60 s."""
    deadline = time.monotonic() + 60
    while True:
        line = read_line(app.stdout, deadline)
        if line is None:
            return None
        if line.startswith(prefix):
            return line[len(prefix):]


def app_state(app):
    """The app's state, as the app itself has it (it prints `state JSON` when told `state`)."""
    app.stdin.write(b"state\n")
    app.stdin.flush()
    line = app_line(app, "state ")
    return json.loads(line) if line is not None else None


def stop(server, app):
    """Ends the app, if it still runs, and the server."""
    if app is not None and app.poll() is None:
        app.kill()
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
