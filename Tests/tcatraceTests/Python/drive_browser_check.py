"""Driving a live app from `tcatrace serve --live`'s page, in a real browser (Chromium, driven
by Playwright).

    python3 drive_browser_check.py TCATRACE APP WORK_DIR

Starts `TCATRACE serve --live WORK_DIR/live`, opens its page, and runs an app (`APP
WORK_DIR/app.db 6`: six actions, then it does what its input says; APP is a command, such as
`tcatrace-fixture drive` on Composable or `RealTCADemo --drive` on TCA) with the
TCATRACE_DEBUGGER line the server printed. In the page: selects action #2 and presses **Jump the app here**, then
reads the app's own state (asked on its input, printed by the app) and compares it with the
trace's state after #2; selects #3 and presses **Send to the app** with the action's JSON as
the page prefilled it, then JSON that does not decode, which the page shows refused with the
reason; **Lock the app**, has the app type, **Unlock the app**; **Back to now**.
Checks that the log shows the jump and the action the page sent. Saves a screenshot of the jump
as WORK_DIR/jump.png. Prints one JSON object: each check's
result, and `failures`.
"""

import json
import os
import shlex
import subprocess
import sys
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

from live_support import Report, app_line, app_state, start_live_server, stop, wait_until

TCATRACE, APP, WORK = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3]
report = Report()
check = report.check


def trace_state(url, seq):
    """The trace's state after action `seq` of the live file's session, as its JSON."""
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    request = urllib.request.Request(
        f"{parts.scheme}://{parts.netloc}/api/files/0/sessions/1/state?at={seq}",
        headers={"X-TCATrace-Token": token})
    with urllib.request.urlopen(request, timeout=30) as response:
        value = json.load(response)["json"]
    return json.loads(value) if isinstance(value, str) else value


def email(state):
    """The login's email in the app's state: TCA's `@ObservableState` encodes its properties
    under their storage's names (`_login`, `_email`), `Composable`'s under their own."""
    if state is None:
        return None
    login = state.get("login", state.get("_login")) or {}
    return login.get("email", login.get("_email"))


def status_text(page):
    return page.eval_on_selector("#drive-status", "p => p.textContent")


def wait_for_status(page, text):
    return wait_until(page, f"document.getElementById('drive-status').textContent.startsWith({json.dumps(text)})", 15000)


server, url, debugger = start_live_server(TCATRACE, os.path.join(WORK, "live"))
app = None
try:
    check("the server prints the page's URL and the line for apps", url and debugger, f"{url} {debugger}")

    app = subprocess.Popen(
        APP + [os.path.join(WORK, "app.db"), "6"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**os.environ, "TCATRACE_DEBUGGER": debugger})
    check("the app records its six actions", app_line(app, "ready") == "")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        shown = wait_until(
            page,
            "document.querySelectorAll('#actions tr').length === 6"
            " && !document.getElementById('drive').hidden", 20000)
        check("the page shows the live app's session and the controls to drive it", shown)
        now = app_state(app)

        page.click("#actions tr[data-seq='2']")
        wait_until(page, "document.getElementById('selected').textContent.startsWith('#2 ')", 10000)
        page.get_by_role("button", name="Jump the app here").click()
        jumped = wait_for_status(page, "took the state after #2")
        check("Jump the app here: the app says it took the state after #2", jumped, status_text(page))
        expected = trace_state(url, 2)
        state = app_state(app)
        check("the app's own state is the trace's state after #2",
              state is not None and state == expected and state != now, f"{state} != {expected}")
        marked = wait_until(
            page,
            "[...document.querySelectorAll('#actions tr.debugger-event')].some(r =>"
            " r.dataset.event === 'jump' && r.textContent.includes('the app took the state after #2'))",
            15000)
        check("the log shows the jump, as the trace records it", marked)
        page.screenshot(path=os.path.join(WORK, "jump.png"))

        page.click("#actions tr[data-seq='3']")
        prefilled = wait_until(
            page, "document.getElementById('send-json').value.includes('live3@example.com')", 10000)
        check("Send to the app is prefilled with the selected action's JSON", prefilled,
              page.eval_on_selector("#send-json", "t => t.value"))
        page.get_by_role("button", name="Send to the app").click()
        sent = wait_for_status(page, "sent the action")
        state = app_state(app)
        check("Send to the app: the app's state shows the action sent",
              sent and state is not None and email(state) == "live3@example.com",
              f"{status_text(page)} {state}")
        logged = wait_until(
            page,
            "[...document.querySelectorAll('#actions tr[data-seq=\"7\"] td')].some(c => c.textContent === 'debugger')",
            15000)
        check("the log shows the action sent, sent from the debugger", logged)

        # An action that does not decode is refused, with the reason, in the page; the app's
        # state stays as it was.
        before = app_state(app)
        page.fill("#send-json", '{"noSuchCase":{}}')
        page.get_by_role("button", name="Send to the app").click()
        undecoded = wait_until(
            page,
            "document.getElementById('drive-status').classList.contains('refused')"
            " && document.getElementById('drive-status').textContent.startsWith("
            "'the action was not sent: its JSON does not decode')",
            15000)
        check("Send to the app: an action that does not decode is refused with the reason",
              undecoded and app_state(app) == before, status_text(page))

        page.get_by_role("button", name="Lock the app").click()
        locked = wait_for_status(page, "locked") and wait_until(
            page, "document.getElementById('lock').textContent === 'Unlock the app'", 5000)
        before = app_state(app)
        app.stdin.write(b"type 1\n")
        app.stdin.flush()
        typed = app_line(app, "typed ")
        check("Lock the app: what the app sends is ignored",
              locked and typed == "1" and app_state(app) == before, status_text(page))
        page.click("#lock")
        unlocked = wait_for_status(page, "unlocked; 1 action was ignored while locked")
        app.stdin.write(b"type 2\n")
        app.stdin.flush()
        app_line(app, "typed ")
        state = app_state(app)
        check("Unlock the app: the app counts what it ignored, and takes its actions again",
              unlocked and state is not None and email(state) == "typed2@example.com",
              f"{status_text(page)} {state}")

        page.get_by_role("button", name="Back to now").click()
        back = wait_for_status(page, "took the state it had before the first jump")
        check("Back to now: the app has the state it had before the jump",
              back and app_state(app) == now, status_text(page))

        page.get_by_role("button", name="Back to now").click()
        refused = wait_until(
            page,
            "document.getElementById('drive-status').classList.contains('refused')"
            " && document.getElementById('drive-status').textContent.startsWith('the app has not jumped')",
            15000)
        check("a command the app cannot do shows its reason", refused, status_text(page))

        app.stdin.write(b"quit\n")
        app.stdin.flush()
        check("the app ends well", app_line(app, "closed") == "")
        gone = wait_until(page, "document.getElementById('drive').hidden", 15000)
        check("once the app has left, the controls are gone", gone)
        browser.close()
finally:
    stop(server, app)

print(json.dumps(report.json()))
