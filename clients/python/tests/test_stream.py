"""``plinth.events.stream()`` against a scripted event-stream server: it yields each event once, in order, and
resumes by itself with ``Last-Event-ID`` after the server drops the connection (also before any event: the opening
``id`` line is its starting point); a 401 raises PlinthError."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from plinth import Plinth, PlinthError


def event(sequence):
    body = {"id": f"evt_{sequence:026d}", "object": "event", "type": "fintech.account.created", "sequence": sequence,
            "data": {"object": {"id": f"acct_{sequence}"}}, "request": None, "livemode": False,
            "created_at": "2026-11-26T10:00Z"}
    return f"id: {sequence}\nevent: fintech.account.created\ndata: {json.dumps(body)}\n\n"


class StreamServer:
    """Each connection is answered by the next script entry: (status, text sent, then the connection closes)."""

    def __init__(self, script):
        self.script = list(script)
        self.seen = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.seen.append({"path": self.path, "last_event_id": self.headers.get("Last-Event-ID")})
                status, text = outer.script.pop(0) if outer.script else (200, ": idle\n\n")
                payload = text.encode()
                self.send_response(status)
                kind = "text/event-stream" if status == 200 else "application/problem+json"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


def test_resumes_by_last_event_id_with_no_gap_or_repeat():
    server = StreamServer([
        (200, ": stream open\nid: 7\n\n"),  # dropped before any event: resume from its opening id
        (200, ": stream open\nid: 7\n\n" + event(8) + event(9)),
        (503, "{}"),
        (200, ": stream open\nid: 9\n\n" + event(10)),
    ])
    try:
        plinth = Plinth(api_key="sk_test_x", base_url=server.url)
        got = []
        for e in plinth.events.stream(type="fintech.account.created"):
            got.append((e.sequence, e.data.object["id"] if isinstance(e.data.object, dict) else e.data.object.id))
            if len(got) == 3:
                break
        assert [s for s, _ in got] == [8, 9, 10]
        assert [s["last_event_id"] for s in server.seen] == [None, "7", "9", "9"]
        assert all(s["path"] == "/v1/events/stream?type=fintech.account.created" for s in server.seen)
    finally:
        server.server.shutdown()


def test_a_refused_key_raises():
    problem = {"type": "/docs/errors#api_key_invalid", "title": "t", "status": 401, "detail": "revoked",
               "code": "api_key_invalid", "request_id": "req_1"}
    server = StreamServer([(401, json.dumps(problem))])
    try:
        with pytest.raises(PlinthError) as raised:
            next(Plinth(api_key="sk_test_x", base_url=server.url).events.stream())
        assert (raised.value.status, raised.value.code) == (401, "api_key_invalid")
    finally:
        server.server.shutdown()


def test_data_over_several_lines_is_one_value():
    # The format lets data span lines (joined by a line break), with comments and retry between: it failed with
    # "Extra data" before, when the last data line replaced the ones before it.
    text = event(8).replace('"object": "event", ', '"object": "event",\ndata: ')
    server = StreamServer([(200, ": open\nid: 7\n\n: a comment\nretry: 100\n" + text)])
    try:
        got = next(Plinth(api_key="sk_test_x", base_url=server.url).events.stream())
        assert (got.sequence, got.id) == (8, f"evt_{8:026d}")
    finally:
        server.server.shutdown()
