"""`tcatrace serve --live` in a real browser (Chromium, driven by Playwright).

    python3 live_browser_check.py TCATRACE FIXTURE WORK_DIR

Starts `TCATRACE serve --live WORK_DIR/live` with no file, opens its page, then runs an app
(`FIXTURE append WORK_DIR/app.db 20 10`: 20 actions, pausing after the tenth until told to go
on) with the TCATRACE_DEBUGGER line the server printed. Checks that the page shows the app's
session while it is connected, marked live, with the actions it has sent so far, then the rest,
marked left once the app has ended. Prints one JSON object: each check's result, and `failures`.
"""

import json
import os
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

from live_support import Report, read_line, start_live_server, stop, wait_until

TCATRACE, FIXTURE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
report = Report()
check = report.check


server, url, debugger = start_live_server(TCATRACE, os.path.join(WORK, "live"))
app = None
try:
    check("the server prints the page's URL and the line for apps", url and debugger, f"{url} {debugger}")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        page.goto(url)
        check("a live server with no app yet shows no session",
              wait_until(page, "document.getElementById('status').textContent === 'No session to show.'", 10000))

        app = subprocess.Popen(
            [FIXTURE, "append", os.path.join(WORK, "app.db"), "20", "10"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "TCATRACE_DEBUGGER": debugger})
        paused = False
        deadline = time.monotonic() + 60
        while True:
            line = read_line(app.stdout, deadline)
            if line is None or line.strip() == "paused":
                paused = line is not None
                break
        check("the app pauses after ten actions", paused)

        shown = wait_until(
            page,
            "[...document.querySelectorAll('#session option')].some(o => o.textContent.endsWith(' · live'))"
            " && document.querySelectorAll('#actions tr').length === 10", 15000)
        label = page.eval_on_selector("#session", "s => s.selectedOptions[0] ? s.selectedOptions[0].textContent : ''")
        check("the app's session appears while it records, marked live, with the actions sent so far",
              shown, f"{label!r}, {page.eval_on_selector_all('#actions tr', 'rows => rows.length')} rows")

        app.stdin.write("go\n")
        app.stdin.close()
        try:
            app.wait(timeout=60)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
        check("the app ends well", app.returncode == 0, str(app.returncode))
        ended = wait_until(
            page,
            "[...document.querySelectorAll('#session option')].some(o => o.textContent.includes(' · left '))"
            " && document.querySelectorAll('#actions tr').length === 20", 15000)
        check("once the app has left, the page shows all its actions and says it left", ended,
              f"{page.eval_on_selector('#session', 's => s.selectedOptions[0] ? s.selectedOptions[0].textContent : null')}, "
              f"{page.eval_on_selector_all('#actions tr', 'rows => rows.length')} rows")
        page.screenshot(path=os.path.join(WORK, "live.png"))
        browser.close()
finally:
    stop(server, app)

print(json.dumps(report.json()))
