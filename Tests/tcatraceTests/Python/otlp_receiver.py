"""An OTLP/HTTP receiver on the loopback address, for ExportCommandTests: prints its port, then
answers each POST as MODE says, until it is killed or its standard input ends: the test holds
the other end, so that a test run killed midway leaves no receiver behind.

    python3 otlp_receiver.py DIRECTORY MODE

MODE: `ok` keeps each request's path and body in DIRECTORY (request-1.json, …; the path in
request-1.path) and answers 200 with `{}`; `fail` answers 503; `silent` reads the request and
never answers.
"""
import http.server
import os
import sys
import threading
import time

directory, mode = sys.argv[1], sys.argv[2]
received = 0


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global received
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if mode == "silent":
            time.sleep(3600)
            return
        if mode == "fail":
            self.send_response(503, "Unavailable")
            self.end_headers()
            return
        received += 1
        with open(os.path.join(directory, f"request-{received}.json"), "wb") as file:
            file.write(body)
        with open(os.path.join(directory, f"request-{received}.path"), "w") as file:
            file.write(f"{self.path} {self.headers['Content-Type']}")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *arguments):
        pass


def exit_when_input_ends():
    sys.stdin.buffer.read()
    os._exit(0)


threading.Thread(target=exit_when_input_ends, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print(server.server_address[1], flush=True)
server.serve_forever()
