"""The one error a Plinth call raises.

An API refusal carries the RFC 9457 problem the server sent; a transport failure (no connection, a timeout) has
``status == 0`` and a code of this library's own, so ``except PlinthError`` covers everything a request can do wrong.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Optional


class PlinthError(Exception):
    """``status``, ``code`` (an open string: the server's list grows), ``param``, ``errors``, ``request_id``."""

    def __init__(
        self,
        status: int,
        code: str,
        *,
        title: Optional[str] = None,
        detail: Optional[str] = None,
        type: Optional[str] = None,
        param: Optional[str] = None,
        errors: Optional[list[dict[str, Any]]] = None,
        request_id: Optional[str] = None,
    ) -> None:
        super().__init__(f"{status or 'no response'} {code}: {detail or title or ''}".strip())
        #: The HTTP status; 0 when no response arrived.
        self.status = status
        #: What to switch on: ``parameter_invalid``, ``rate_limited``, …; ``connection_failed`` or ``timeout``
        #: when no response arrived.
        self.code = code
        self.title = title
        #: For people; it may change between releases: do not parse it.
        self.detail = detail
        self.type = type
        #: The first offending input: a dotted field path (``kyb.ein``) or a header name.
        self.param = param
        #: Every offending input when a request has several, as the server sent them (dicts).
        self.errors = errors or []
        #: The ``Request-Id`` (``req_…``) to quote to support.
        self.request_id = request_id

    @classmethod
    def from_response(cls, status: int, body: Optional[str], headers: Optional[Mapping[str, str]]) -> "PlinthError":
        """From a non-2xx response, whatever its body (a proxy's HTML page is not a problem body)."""
        problem: dict[str, Any] = {}
        try:
            parsed = json.loads(body or "")
            if isinstance(parsed, dict):
                problem = parsed
        except ValueError:
            pass

        def text(key: str) -> Optional[str]:
            value = problem.get(key)
            return value if isinstance(value, str) else None

        errors = problem.get("errors")
        header_id = next((v for k, v in (headers or {}).items() if k.lower() == "request-id"), None)
        return cls(
            status,
            text("code") or "unknown_error",
            title=text("title"),
            detail=text("detail"),
            type=text("type"),
            param=text("param"),
            errors=[e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else [],
            request_id=text("request_id") or header_id,
        )
