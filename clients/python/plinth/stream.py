"""``plinth.events.stream()``: the live event stream (GET /v1/events/stream, Server-Sent Events) as an iterator that
resumes by itself (docs/api.md#the-live-event-stream).

Each event carries its ``sequence``, gap-free per organisation and mode. After any disconnection (a network failure,
the server restarting or ending the stream) the iterator reconnects with ``Last-Event-ID`` set to the last sequence
it saw, so it yields every event once, in order. A refusal that waiting will not change (a revoked key: 401; a bad
parameter: 400) raises PlinthError; 429 and 5xx are waited out (``Retry-After``, else backoff).
"""
from __future__ import annotations

import time
from typing import Iterator, Optional

import urllib3

from plinth_generated.models import Event

from .errors import PlinthError

MAX_DELAY = 8.0
# The server writes a comment every 15 s: a connection silent for much longer than that is dead.
READ_TIMEOUT = 45.0


def _messages(response: urllib3.BaseHTTPResponse) -> Iterator[dict[str, str]]:
    """The messages of one response, as they arrive: an ``id`` alone (the stream's opening) counts too."""
    fields: dict[str, str] = {}
    buffered = b""
    for chunk in response.stream(1024, decode_content=True):
        buffered += chunk
        while b"\n" in buffered:
            raw, buffered = buffered.split(b"\n", 1)
            line = raw.decode("utf-8").rstrip("\r")
            if line == "":
                if "data" in fields or "id" in fields:
                    yield fields
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                # Several data lines make one value, joined by a line break (the format allows it).
                fields[name] = f"{fields['data']}\n{value}" if name == "data" and "data" in fields else value


def event_stream(base_url: str, api_key: str, *, type: Optional[str] = None, after: Optional[int] = None, connect_timeout: float = 30.0) -> Iterator[Event]:
    pool = urllib3.PoolManager(retries=False)
    url = f"{base_url.rstrip('/')}/v1/events/stream"
    last = after
    delay = 0.25
    while True:
        headers = {"Authorization": f"Bearer {api_key}", "Accept": "text/event-stream"}
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        wait: Optional[float] = None
        try:
            response = pool.request("GET", url, fields={"type": type} if type else None, headers=headers, preload_content=False, timeout=urllib3.Timeout(connect=connect_timeout, read=READ_TIMEOUT))
            try:
                if response.status == 429 or response.status >= 500:
                    retry_after = response.headers.get("Retry-After", "")
                    wait = float(retry_after) if retry_after.isdigit() else None
                elif response.status != 200:
                    raise PlinthError.from_response(response.status, response.data.decode("utf-8", "replace"), dict(response.headers))
                else:
                    delay = 0.25
                    for message in _messages(response):
                        if "id" in message:
                            last = int(message["id"])
                        if "data" in message and message.get("event") != "gap":
                            yield Event.from_json(message["data"])
            finally:
                response.release_conn()
        except urllib3.exceptions.HTTPError:
            pass  # a dropped connection: reconnect below, from ``last``
        time.sleep(wait if wait is not None else delay)
        delay = min(delay * 2, MAX_DELAY)
