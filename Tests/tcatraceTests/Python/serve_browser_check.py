"""`tcatrace serve` in a real browser (Chromium, driven by Playwright).

    python3 serve_browser_check.py TCATRACE DEMO_DB WORK_DIR

Copies the demo's trace into WORK_DIR, writes a hostile copy (payloads, case names and
features holding markup, script and bidi controls) and a damaged file beside it, serves all
three with TCATRACE, and checks the page as a user sees it, comparing with what the command
line prints. Prints one JSON object: each check's result, and `failures`, the list of what
went wrong (empty when all hold). Saves a screenshot as WORK_DIR/serve.png.
"""

import http.client
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.parse

from playwright.sync_api import sync_playwright

TCATRACE, DEMO, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
results = {}


def check(name, condition, detail=""):
    results[name] = bool(condition)
    if not condition:
        failures.append(f"{name}: {detail}")


def cli(*arguments):
    done = subprocess.run([TCATRACE, *arguments], capture_output=True, text=True, timeout=120)
    return done


def wait_until(page, expression, timeout_ms):
    """Polls `expression` in the page until it is true: the page's Content-Security-Policy
    forbids the `eval` that Playwright's wait_for_function uses for a predicate."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        if page.evaluate(f"() => Boolean({expression})"):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {timeout_ms} ms: {expression}")
        time.sleep(0.05)


def join(parent, key):
    if not parent:
        return key
    if not key:
        return parent
    return parent + key if key.startswith("[") else parent + "." + key


def describe(node):
    if "text" in node:
        return node["text"]
    if "string" in node:
        return json.dumps(node["string"], ensure_ascii=False)
    if "children" not in node and "case" in node:
        return f"{node['type']}.{node['case']}"
    return None


def leaves(node, path="", label=None, out=None):
    """The state tree's leaves as the page shows them: (path, 'label: value')."""
    out = [] if out is None else out
    if "children" not in node:
        out.append((path, (f"{label}: " if label is not None else "") + describe(node)))
        return out
    for child in node["children"]:
        child_label = child["label"] if child["label"] is not None else child["key"]
        leaves(child["value"], join(path, child["key"]), child_label, out)
    return out


def folded(route):
    """A feature's route with each element's id folded, as the features picture draws it."""
    out, depth = "", 0
    for character in route:
        if character == "[":
            if depth == 0:
                out += "[…]"
            depth += 1
        elif character == "]" and depth > 0:
            depth -= 1
        elif depth == 0:
            out += character
    return out


# The files: the demo, a hostile copy, a damaged file.
demo = os.path.join(WORK, "demo.db")
hostile = os.path.join(WORK, "hostile.db")
damaged = os.path.join(WORK, "damaged.db")
shutil.copy(DEMO, demo)
shutil.copy(DEMO, hostile)
HOSTILE_PAYLOAD = '<img src=x onerror="window.__pwned=1">'
HOSTILE_CASE = '</script><script>window.__pwned=2</script>'
HOSTILE_FEATURE = "javascript:window.__pwned=3\u202etxt.exe"
with sqlite3.connect(hostile) as db:
    db.execute(
        "UPDATE actions SET payload = ?, case_name = ?, feature = ? WHERE session_id = 2",
        (HOSTILE_PAYLOAD, HOSTILE_CASE, HOSTILE_FEATURE),
    )
# A longer session: the demo's first, with 450 copies of its last action after it, each of a
# feature of its own (more than the features picture draws).
long = os.path.join(WORK, "long.db")
shutil.copy(DEMO, long)
with sqlite3.connect(long) as db:
    last = db.execute("SELECT MAX(seq) FROM actions WHERE session_id = 1").fetchone()[0]
    columns = [row[1] for row in db.execute("PRAGMA table_info(actions)") if row[1] != "id"]
    values = ", ".join("?" if c == "seq" else c for c in columns)
    for seq in range(last + 1, last + 451):
        db.execute(f"INSERT INTO actions ({', '.join(columns)}) SELECT {values} FROM actions "
                   "WHERE session_id = 1 AND seq = ?", (seq, last))
    db.execute("UPDATE actions SET feature = 'f' || seq WHERE session_id = 1 AND seq > ?", (last,))
    LONG_COUNT = db.execute("SELECT COUNT(*) FROM actions WHERE session_id = 1").fetchone()[0]
    LONG_FEATURES = len({folded(row[0]) for row in db.execute("SELECT feature FROM actions WHERE session_id = 1")})
with open(damaged, "wb") as file:
    file.write(b"SQLite format 3\x00" + bytes(range(256)) * 8)
damaged_line = cli("sessions", damaged).stderr.strip()
if damaged_line.startswith("Error: "):
    damaged_line = damaged_line[len("Error: "):]

server = subprocess.Popen(
    [TCATRACE, "serve", demo, hostile, damaged, long],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
)
try:
    first = server.stdout.readline()
    url = first.split(" at ", 1)[1].strip()
    parsed = urllib.parse.urlparse(url)
    token = urllib.parse.parse_qs(parsed.query)["token"][0]
    port = parsed.port

    def request(path, headers):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.putrequest("GET", path, skip_host=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        body = response.read().decode()
        connection.close()
        return response.status, body

    host = f"127.0.0.1:{port}"
    status, body = request("/api/files", {"Host": host})
    check("a request without the token is refused", status == 401 and "token" in body, f"{status} {body}")
    status, body = request("/api/files", {"Host": f"attacker.example:{port}", "X-TCATrace-Token": token})
    check("a request with another Host is refused", status == 403, f"{status} {body}")
    status, body = request("/api/files", {"Host": host, "X-TCATrace-Token": token[:-1] + ("1" if token[-1] == "0" else "0")})
    check("a wrong token is refused", status == 401, f"{status} {body}")
    status, body = request("/api/files", {"Host": host, "X-TCATrace-Token": token})
    check("the token and the Host are accepted", status == 200, f"{status} {body}")

    replay = [json.loads(line) for line in cli("replay", demo, "--session", "1", "--format", "jsonl").stdout.splitlines()]

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(url)
        page.wait_for_selector("#actions tr", timeout=20000)
        wait_until(page, f"document.querySelectorAll('#actions tr').length >= {len(replay)}", 20000)

        # The log: the demo's first session, action by action, with its categories.
        rows = page.eval_on_selector_all(
            "#actions tr",
            "rows => rows.map(r => [Number(r.dataset.seq), r.children[2].textContent, r.children[2].className])",
        )
        expected = [[a["seq"], a["category"], f"category {a['category']}"] for a in replay]
        check("the log shows the session's actions with their categories", rows == expected, f"{rows[:3]} … vs {expected[:3]} …")
        colours = page.eval_on_selector_all(
            "#actions td.category", "cells => [...new Set(cells.map(c => getComputedStyle(c).color))]")
        check("categories are coloured", len(colours) >= 3, str(colours))

        # The state at a step equals `tcatrace state --at N --format json`.
        def select_row(seq):
            page.click(f'#actions tr[data-seq="{seq}"]')
            wait_until(page, f"document.getElementById('selected').textContent.startsWith('#{seq} ')", 10000)
            wait_until(page, f"document.querySelector('#state > [data-path]') !== null", 10000)

        def shown_state():
            return page.eval_on_selector_all(
                "#state .leaf", "leaves => leaves.map(l => [l.dataset.path, l.textContent])")

        def cli_state(seq):
            state = json.loads(cli("state", demo, "--session", "1", "--at", str(seq), "--format", "json").stdout)[0]
            return [list(leaf) for leaf in leaves(state["tree"])]

        step = 5
        select_row(step)
        page.wait_for_timeout(300)
        check("the state shown at step 5 is tcatrace state --at 5", shown_state() == cli_state(step),
              f"{shown_state()[:4]} vs {cli_state(step)[:4]}")
        redacted = [text for path, text in shown_state() if path == "login.password"]
        check("a redacted value shows as redacted", redacted == ["password: <redacted>"], str(redacted))

        # Keys move the selection and the state tree.
        page.locator("#log").focus()
        page.keyboard.press("ArrowDown")
        wait_until(page, "document.getElementById('selected').textContent.startsWith('#6 ')", 10000)
        page.wait_for_timeout(300)
        check("ArrowDown selects the next action and its state", shown_state() == cli_state(6))
        page.keyboard.press("j")
        wait_until(page, "document.getElementById('selected').textContent.startsWith('#7 ')", 10000)
        page.keyboard.press("k")
        wait_until(page, "document.getElementById('selected').textContent.startsWith('#6 ')", 10000)
        page.keyboard.press("ArrowUp")
        wait_until(page, "document.getElementById('selected').textContent.startsWith('#5 ')", 10000)
        page.wait_for_timeout(300)
        check("j, k and ArrowUp step too", shown_state() == cli_state(5))

        # The slider moves the selection.
        page.eval_on_selector("#slider", "el => { el.value = 9; el.dispatchEvent(new Event('input')); }")
        wait_until(page, "document.getElementById('selected').textContent.startsWith('#9 ')", 10000)
        page.wait_for_timeout(300)
        check("the slider selects a step and its state", shown_state() == cli_state(9))

        # Filters: the rows are those `tcatrace replay` prints with the same filter.
        def shown_seqs():
            return page.eval_on_selector_all("#actions tr", "rows => rows.map(r => Number(r.dataset.seq))")

        def replay_seqs(*filters):
            lines = cli("replay", demo, "--session", "1", "--format", "jsonl", *filters).stdout.splitlines()
            return [json.loads(line)["seq"] for line in lines]

        def filtered(expected):
            try:
                wait_until(page, f"JSON.stringify([...document.querySelectorAll('#actions tr')].map(r => Number(r.dataset.seq))) === '{json.dumps(expected, separators=(',', ':'))}'", 10000)
            except TimeoutError:
                pass
            return shown_seqs()

        page.fill("#feature", "login")
        expected = replay_seqs("--feature", "login")
        check("the feature filter shows replay --feature's actions", filtered(expected) == expected and 0 < len(expected) < len(replay),
              f"{shown_seqs()} vs {expected}")
        page.fill("#feature", "")
        page.fill("#text", "blob")
        expected = replay_seqs("--grep", "blob")
        check("the text filter shows the actions whose case or payload holds it", filtered(expected) == expected and expected != [],
              f"{shown_seqs()} vs {expected}")
        page.fill("#text", "")
        page.uncheck('input[name=category][value=view]')
        expected = replay_seqs("--category", "internal,delegate,unclassified")
        check("the category filter shows replay --category's actions", filtered(expected) == expected,
              f"{shown_seqs()} vs {expected}")
        page.check('input[name=category][value=view]')
        expected = [a["seq"] for a in replay]
        check("clearing the filters shows the whole log again", filtered(expected) == expected)

        # A filter changed while a page of the log is still on its way: the log shows the new
        # filter's actions, not nothing. The first page's answer is held until the second
        # filter's reset has run.
        held = []

        def hold_first(route):
            if held:
                route.continue_()
            else:
                held.append(route)

        page.route("**/actions?*", hold_first)
        page.fill("#feature", "login")
        try:
            deadline = time.monotonic() + 10
            while not held and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            page.fill("#feature", "")
            page.fill("#text", "blob")
            page.wait_for_timeout(600)
        finally:
            for route in held:
                route.continue_()
        page.unroute("**/actions?*")
        expected = replay_seqs("--grep", "blob")
        check("a filter changed while a page is loading shows its own actions",
              len(held) == 1 and filtered(expected) == expected, f"{len(held)} held; {shown_seqs()} vs {expected}")
        page.fill("#text", "")
        expected = [a["seq"] for a in replay]
        filtered(expected)

        # A state path's history: the button beside a value in the state tree lists the actions
        # that changed it, as `tcatrace replay --changed` does, with their categories and causes.
        select_row(5)
        page.wait_for_timeout(300)
        page.click('#state .leaf > button.history[data-path="login.twoFactor.code"]')
        expected = replay_seqs("--changed", "login.twoFactor.code")
        shown = filtered(expected)
        more = page.text_content("#more")
        check("a value's history button lists replay --changed's actions",
              shown == expected and expected == [4, 5, 8] and page.input_value("#changed") == "login.twoFactor.code"
              and more == "3 actions changed login.twoFactor.code", f"{shown} vs {expected}; {more!r}")
        page.click('#state details[data-path="login.twoFactor"] > summary > button.history')
        expected = replay_seqs("--changed", "login.twoFactor")
        shown = filtered(expected)
        still_open = page.eval_on_selector('#state details[data-path="login.twoFactor"]', "d => d.open")
        check("a node's history button lists its history and leaves the node open",
              shown == expected and len(expected) >= 3 and still_open, f"{shown} vs {expected}; open={still_open}")
        page.fill("#changed", "")
        expected = [a["seq"] for a in replay]
        filtered(expected)

        # The downloads are what tcatrace test and tcatrace export print.
        statuses = page.evaluate(
            "async () => Promise.all(['download-test', 'download-perfetto'].map(async id => {"
            " const r = await fetch(document.getElementById(id).href); return [r.status, (await r.text()).slice(0, 20)]; }))")
        check("the download links answer with the test and the Perfetto JSON",
              statuses[0][0] == 200 and statuses[0][1].startswith("// Generated from") and
              statuses[1][0] == 200 and statuses[1][1].startswith('{"displayTimeUnit"'), str(statuses))

        # An action recorded after the page opened appears.
        with sqlite3.connect(demo) as db:
            last = db.execute("SELECT MAX(seq) FROM actions WHERE session_id = 1").fetchone()[0]
            columns = [row[1] for row in db.execute("PRAGMA table_info(actions)") if row[1] != "id"]
            selected = ", ".join("? " if c == "seq" else c for c in columns)
            db.execute(
                f"INSERT INTO actions ({', '.join(columns)}) SELECT {selected.replace('? ', '?')} "
                "FROM actions WHERE session_id = 1 AND seq = ?",
                (last + 1, last),
            )
        try:
            page.wait_for_selector(f'#actions tr[data-seq="{last + 1}"]', timeout=8000)
            check("an action written after the page opened appears", True)
        except Exception as error:  # noqa: BLE001
            check("an action written after the page opened appears", False, str(error))

        # Two sessions side by side: the demo's first session, with the action just written, and
        # the hostile copy's, which lacks it. They part where `tcatrace diff` says they do.
        page.click("#compare-panel summary")
        page.select_option("#compare-with", "1/1")
        page.click("#compare-form button")
        page.wait_for_selector("#compare-entries tr.first-difference", timeout=20000)
        diff = cli("diff", demo, hostile, "--session", "1")
        diff_lines = diff.stdout.splitlines()
        difference_at = next((i for i, line in enumerate(diff_lines) if line.startswith("The first difference")), None)
        diff_seq = int(diff_lines[difference_at + 1].split("#", 1)[1].split(" ", 1)[0]) if difference_at is not None else None
        first_row = page.eval_on_selector(
            "#compare-entries tr.first-difference",
            "row => [row.className, row.children[0].textContent, row.children[2].textContent, row.children[3].textContent]")
        check("two sessions side by side part where tcatrace diff says",
              diff.returncode == 1 and diff_lines[difference_at] == f"The first difference: an action only {demo} has" and
              first_row == ["only-first first-difference", f"#{diff_seq}", "−", ""],
              f"{first_row} vs {diff_lines[difference_at:difference_at + 2] if difference_at is not None else diff.stdout}")
        summary = page.text_content("#compare-summary")
        counts = r"(\d+) actions aligned: (\d+) alike, (\d+) that did something else; (\d+) only in .*, (\d+) only in "
        shown_counts = re.search(counts, summary)
        cli_counts = re.search(counts, diff_lines[-1])
        check("the comparison counts what tcatrace diff counts",
              shown_counts is not None and cli_counts is not None and shown_counts.groups() == cli_counts.groups(),
              f"{summary!r} vs {diff_lines[-1]!r}")
        rows_before = page.eval_on_selector_all(
            "#compare-entries tr", "rows => rows.map(r => [r.className, r.children[0].textContent, r.children[3].textContent])")
        check("the rows before the parting are alike, action by action",
              len(rows_before) == 4 and all(r[0] == "alike" and r[1] == f"#{r[2]}" for r in rows_before[:3]), str(rows_before))
        page.select_option("#compare-with", "0/1")
        page.click("#compare-form button")
        wait_until(page, "document.getElementById('compare-summary').textContent.startsWith('The sessions are alike')", 20000)
        check("a session compared with itself is alike", True)
        page.click("#compare-panel summary")

        # Leaks: the leaky session; clicking a leak selects its action and shows its changes.
        leaky = page.eval_on_selector_all(
            "#session option", "options => options.map(o => [o.value, o.textContent])")
        demo_leaky = [value for value, text in leaky if text.startswith("demo.db") and "4 leaks" in text]
        page.select_option("#session", demo_leaky[0])
        page.wait_for_selector("#actions tr.leak .leak-marker", timeout=10000)
        marker_row = page.eval_on_selector("#actions tr.leak", "row => Number(row.dataset.seq)")
        page.click(f'#actions tr[data-seq="{marker_row}"] .leak-marker')
        wait_until(page, f"document.getElementById('selected').textContent.startsWith('#{marker_row} ')", 10000)
        page.wait_for_timeout(300)
        leaked = json.loads(cli("replay", demo, "--session", "2", "--format", "jsonl").stdout.splitlines()[marker_row - 1])
        changes = page.eval_on_selector_all("#changes li", "items => items.map(i => i.textContent)")
        expected_changes = [f"{c['path']}: {c['old'] if c['old'] is not None else '∅'} → {c['new'] if c['new'] is not None else '∅'}"
                            for c in leaked["changes"]] or ["No change."]
        check("clicking a leak selects its action and shows its changes", changes == expected_changes,
              f"{changes} vs {expected_changes}")
        leak_rules = page.eval_on_selector_all("#selected-leaks strong", "items => items.map(i => i.textContent)")
        check("the selected action's leaks are named", leak_rules == [l["rule"] for l in leaked["leaks"]], str(leak_rules))

        # Leaks by rule and feature, as `tcatrace leaks` counts them; each links to its action.
        page.click("#leaks-panel summary")
        summaries = page.eval_on_selector_all(
            "#leak-summaries tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))")
        listed = json.loads(cli("leaks", demo, "--session", "2", "--format", "json").stdout)
        check("the leaks panel lists tcatrace leaks' rules and features",
              sorted(summaries) == sorted([[l["rule"], l["feature"] or "(root)", str(l["count"]), f"#{l['first_seq']}"] for l in listed]),
              f"{summaries} vs {listed}")
        last_link = page.locator("#leak-summaries a.action-link").last
        last_seq = int(last_link.text_content()[1:])
        last_link.click()
        wait_until(page, f"document.getElementById('selected').textContent.startsWith('#{last_seq} ')", 10000)
        check("a leak's link selects its action", True)

        # The features as a picture, each leak an arrow from the feature that broke the rule to
        # the one whose action it was; an arrow selects its first action.
        page.click("#features-panel summary")
        with sqlite3.connect(demo) as db:
            leak_rows = db.execute(
                "SELECT l.rule, l.feature, a.feature, a.seq FROM leaks l JOIN actions a ON a.id = l.action_id "
                "WHERE a.session_id = 2").fetchall()
            feature_rows = [row[0] for row in db.execute("SELECT DISTINCT feature FROM actions WHERE session_id = 2")]
        expected_reaches = sorted({(rule, "" if rule == "view-sends-private-action" else folded(by), str(rule == "view-sends-private-action").lower(), folded(to))
                                   for rule, by, to, _ in leak_rows})
        wait_until(page, f"document.querySelectorAll('#features-svg g.reach').length === {len(expected_reaches)}", 10000)
        arrows = sorted(tuple(a) for a in page.eval_on_selector_all(
            "#features-svg g.reach", "gs => gs.map(g => [g.dataset.rule, g.dataset.from, g.dataset.outside, g.dataset.to])"))
        check("the features picture draws each leak as an arrow between features", arrows == expected_reaches and len(arrows) == 4,
              f"{arrows} vs {expected_reaches}")
        drawn = set(page.eval_on_selector_all("#features-svg g.feature:not(.outside)", "gs => gs.map(g => g.dataset.path)"))
        check("the picture has every feature of the session", {folded(f) for f in feature_rows} <= drawn, f"{drawn}")
        parent_reach = [r for r in leak_rows if r[0] == "parent-reacts-to-private-child-action"][0]
        page.focus('#features-svg g.reach[data-rule="parent-reacts-to-private-child-action"]')
        page.keyboard.press("Enter")
        wait_until(page, f"document.getElementById('selected').textContent.startsWith('#{parent_reach[3]} ')", 10000)
        check("an arrow selects its leak's action", True)

        # SQL: a query shows a table; one that writes is refused, and the file is unchanged.
        page.click("#sql-panel summary")
        page.fill("#sql-query", "SELECT seq, case_name FROM actions WHERE session_id = 2 ORDER BY seq LIMIT 3")
        page.click("#sql-form button")
        page.wait_for_selector("#sql-result tbody tr", timeout=10000)
        cells = page.eval_on_selector_all(
            "#sql-result tbody tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))")
        check("SQL shows its rows", cells == [[str(a["seq"]), a["case"]] for a in
                                              [json.loads(l) for l in cli("replay", demo, "--session", "2", "--format", "jsonl").stdout.splitlines()][:3]],
              str(cells))
        with sqlite3.connect(demo) as db:
            before = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        page.fill("#sql-query", "DELETE FROM actions")
        page.click("#sql-form button")
        wait_until(page, "document.getElementById('sql-error').textContent !== ''", 10000)
        refusal = page.text_content("#sql-error")
        with sqlite3.connect(demo) as db:
            after = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        check("SQL that writes is refused, in one line", "read" in refusal and "\n" not in refusal and before == after,
              f"{refusal!r} {before} {after}")

        # The damaged file: the command line's one line, in the page; the other files served.
        errors = page.text_content("#file-errors")
        check("a damaged file shows the command line's one line", damaged_line != "" and damaged_line in errors,
              f"{errors!r} lacks {damaged_line!r}")

        page.screenshot(path=os.path.join(WORK, "serve.png"))

        # The hostile copy: its texts are shown as text, and none runs.
        hostile_leaky = [value for value, text in leaky if text.startswith("hostile.db") and "4 leaks" in text]
        page.select_option("#session", hostile_leaky[0])
        wait_until(page, "[...document.querySelectorAll('#actions td')].some(td => td.textContent.includes('onerror'))", 10000)
        first_seq = page.eval_on_selector("#actions tr", "row => Number(row.dataset.seq)")
        page.click(f'#actions tr[data-seq="{first_seq}"]')
        page.wait_for_timeout(1000)
        texts = page.eval_on_selector_all("#actions td", "cells => cells.map(c => c.textContent)")
        check("a hostile payload is shown as text", any(HOSTILE_PAYLOAD in t for t in texts))
        check("a hostile case name is shown as text", any(HOSTILE_CASE in t for t in texts))
        check("a hostile feature is shown as text", HOSTILE_FEATURE in texts)
        check("the payload's markup made no element",
              page.eval_on_selector_all("img, script:not([src]), iframe", "nodes => nodes.length") == 0)
        pwned = page.evaluate("window.__pwned === undefined")
        check("nothing in the hostile trace ran", pwned and dialogs == [], f"pwned={not pwned} dialogs={dialogs}")
        detail = page.text_content("#payload")
        check("the hostile payload shows as text in the detail", detail == HOSTILE_PAYLOAD, repr(detail))
        wait_until(page, "[...document.querySelectorAll('#features-svg title')].some(t => t.textContent.includes('javascript:'))", 10000)
        titles = page.eval_on_selector_all("#features-svg title", "ts => ts.map(t => t.textContent)")
        check("a hostile feature is drawn as text in the picture", any(HOSTILE_FEATURE in t for t in titles), str(titles[:3]))
        check("nothing in the hostile picture ran", page.evaluate("window.__pwned === undefined") and dialogs == [])

        # The log holds a page of 200 actions, and reads the next as it is scrolled to its end.
        page.click("#features-panel summary")
        page.select_option("#session", "3/1")
        wait_until(page, "document.querySelectorAll('#actions tr').length > 0 && document.getElementById('more').textContent !== ''", 10000)
        page.wait_for_timeout(500)
        first_rows = page.eval_on_selector_all("#actions tr", "rows => rows.length")
        counts_seen = [first_rows]
        for _ in range(4):
            page.eval_on_selector("#log", "log => { log.scrollTop = log.scrollHeight; }")
            try:
                wait_until(page, f"document.querySelectorAll('#actions tr').length > {counts_seen[-1]}", 5000)
            except TimeoutError:
                break
            counts_seen.append(page.eval_on_selector_all("#actions tr", "rows => rows.length"))
        seqs = page.eval_on_selector_all("#actions tr", "rows => rows.map(r => Number(r.dataset.seq))")
        check("the log reads 200 actions a page as it is scrolled",
              counts_seen == [200, 400, LONG_COUNT] and seqs == list(range(1, LONG_COUNT + 1))
              and page.text_content("#more") == f"{LONG_COUNT} actions", f"{counts_seen} {page.text_content('#more')!r}")

        # A session with more features than the picture draws: it draws 400, and says so.
        page.click("#features-panel summary")
        wait_until(page, "document.querySelector('#features-picture .note') !== null", 10000)
        note = page.text_content("#features-picture .note")
        boxes = page.eval_on_selector_all("#features-svg g.feature", "gs => gs.length")
        check("a picture of more features than it holds draws 400 and says so",
              note == f"Drawn: 400 of {LONG_FEATURES} features (those with leaks, then the most actions) and 0 of 0 arrows between them."
              and 400 <= boxes <= 402, f"{note!r} {boxes}")
        browser.close()
finally:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()

results["failures"] = failures
print(json.dumps(results, sort_keys=True))
