"""A scripted local HTTP server for the layer's tests: it answers each attempt from a list and records what the client
sent (method, path, Idempotency-Key, body)."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from plinth import Plinth

ACCOUNT = {"id": "acct_X", "object": "fintech.account", "type": "business", "country": "US", "status": "active",
           "status_details": None, "closed_at": None,
           "available_balance": {"amount": 0, "currency": "USD"}, "current_balance": {"amount": 0, "currency": "USD"}, "kyb": None, "metadata": {}, "livemode": False, "created_at": "2026-11-22T10:00Z"}


def problem(status, code, **headers):
    body = {"type": f"/docs/errors#{code}", "title": code, "status": status, "detail": code, "code": code, "request_id": "req_P"}
    return {"status": status, "body": body, "headers": {"Content-Type": "application/problem+json", **headers}}


class Scripted:
    def __init__(self):
        self.script = []
        self.seen = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                outer.seen.append({"method": self.command, "path": self.path, "key": self.headers.get("Idempotency-Key"), "body": body})
                step = outer.script.pop(0) if outer.script else {"status": 500}
                if step == "hang":
                    time.sleep(2)
                    return
                payload = json.dumps(step.get("body", {})).encode()
                self.send_response(step["status"])
                headers = {"Content-Type": "application/json", "Request-Id": f"req_{len(outer.seen)}", **step.get("headers", {})}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def client(self, **options):
        self.seen = []
        return Plinth(api_key="sk_test_x", base_url=self.url, **options)
