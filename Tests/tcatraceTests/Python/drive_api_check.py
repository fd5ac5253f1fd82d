"""Driving a live app through `tcatrace serve --live`'s API (`POST /api/files/F/live/C`, what the
page's buttons ask), past the states the app keeps in its memory.

    python3 drive_api_check.py TCATRACE APP WORK_DIR

Starts `TCATRACE serve --live WORK_DIR/live` and runs an app (`APP WORK_DIR/app.db 300`: 300
actions, then it does what its input says, as `drive_browser_check.py` describes) with the
TCATRACE_DEBUGGER line the server printed. Jumps the app to the state after #299 (from its
memory) and after #2 (older than the 256 states it keeps: from the trace's JSON), and reads the
app's own state after each; sends JSON that does not decode, which is refused with the reason;
goes back. Once the app has ended, `TCATRACE diff` finds the app's own file and the server's
alike. Prints one JSON object: each check's result, and `failures`.
"""

import glob
import json
import os
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from live_support import Report, app_line, app_state, start_live_server, stop

TCATRACE, APP, WORK = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3]
report = Report()
check = report.check


def request(url, path, method="GET", body=None):
    """The status and JSON of the API's answer to `method path`."""
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    call = urllib.request.Request(
        f"{parts.scheme}://{parts.netloc}{path}", method=method,
        data=body.encode() if body is not None else None,
        headers={"X-TCATrace-Token": token})
    try:
        with urllib.request.urlopen(call, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def trace_state(url, seq):
    """The trace's state after action `seq` of the live file's session, as its JSON."""
    _, answer = request(url, f"/api/files/0/sessions/1/state?at={seq}")
    value = answer["json"]
    return json.loads(value) if isinstance(value, str) else value


def live_actions(url):
    """The actions the live file's session holds so far."""
    _, files = request(url, "/api/files")
    sessions = files[0].get("sessions", []) if files else []
    return sessions[0]["actions"] if sessions else 0


def command(url, name, query="", body=None):
    """The status and text of the app's answer to the page's command `name`."""
    status, answer = request(
        url, f"/api/files/0/live/{name}" + (f"?{query}" if query else ""), "POST", body)
    return status, answer.get("done", answer.get("error", ""))


server, url, debugger = start_live_server(TCATRACE, os.path.join(WORK, "live"))
app = None
try:
    check("the server prints the page's URL and the line for apps", url and debugger,
          f"{url} {debugger}")
    app = subprocess.Popen(
        APP + [os.path.join(WORK, "app.db"), "300"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**os.environ, "TCATRACE_DEBUGGER": debugger})
    check("the app records its 300 actions", app_line(app, "ready") == "")
    deadline = time.monotonic() + 60
    while live_actions(url) < 300 and time.monotonic() < deadline:
        time.sleep(0.05)
    check("the server's file holds the 300 actions", live_actions(url) == 300)
    now = app_state(app)
    check("the app tells its state", now is not None)

    answer = command(url, "jump", "seq=299")
    check("a jump to #299 takes the state from the app's memory",
          answer == (200, "took the state after #299, from the app's memory"), answer)
    state = app_state(app)
    check("the app's own state is the trace's state after #299",
          state is not None and state == trace_state(url, 299) and state != now, state)
    answer = command(url, "jump", "seq=2")
    check("a jump to #2 takes the state from the trace's JSON",
          answer == (200, "took the state after #2, from the trace's JSON"), answer)
    state = app_state(app)
    check("the app's own state is the trace's state after #2",
          state == trace_state(url, 2) and state != now, state)

    answer = command(url, "send", body='{"noSuchCase":{}}')
    check("an action that does not decode is refused with the reason",
          answer[0] == 409 and answer[1].startswith("the action was not sent: its JSON does not decode"),
          answer)
    answer = command(url, "back")
    check("back to now: the app has the state it had before the first jump",
          answer[0] == 200 and now is not None and app_state(app) == now, answer)

    app.stdin.write(b"quit\n")
    app.stdin.flush()
    check("the app ends well", app_line(app, "closed") == "")
    files = glob.glob(os.path.join(WORK, "live", "*.db"))
    alike = None
    deadline = time.monotonic() + 60
    while len(files) == 1 and time.monotonic() < deadline:
        # NB: The server, another process, may still be writing the last rows.
        alike = subprocess.run(
            [TCATRACE, "diff", os.path.join(WORK, "app.db"), files[0]],
            capture_output=True, text=True, timeout=60)
        if alike.returncode == 0:
            break
        time.sleep(0.2)
    check("the server's file and the app's are alike by tcatrace diff",
          alike is not None and alike.returncode == 0 and "are alike" in alike.stdout,
          f"{files} {alike.stdout if alike else ''}{alike.stderr if alike else ''}")
finally:
    stop(server, app)

print(json.dumps(report.json()))
