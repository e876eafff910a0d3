"""Retries around one logical call (clients/README.md#what-every-client-does).

The generated code makes one HTTP request per call and nothing more (urllib3's own retries are switched off, so
this is the one place that decides). Here a call is attempted again after a connection failure, a timeout, a
409 ``idempotency_request_in_progress``, a 429 or a 5xx: after the server's ``Retry-After`` when it gives one, else
after an exponential backoff with full jitter, at most ``max_retries`` times. The caller passes the same
``Idempotency-Key`` into every attempt, so a retried create can never create twice.
"""
from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, TypeVar

import urllib3

from plinth_generated.exceptions import ApiException

from .errors import PlinthError

T = TypeVar("T")

#: A server asking to wait longer than this is treated as down: the error is raised instead.
MAX_RETRY_AFTER_SECONDS = 60.0
BASE_DELAY_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0


@dataclass(frozen=True)
class RetryInfo:
    attempt: int  #: 1 for the first retry
    status: int  #: the status that caused it; 0 for a connection failure or timeout
    delay: float  #: seconds


def header(headers: Optional[Mapping[str, str]], name: str) -> Optional[str]:
    """A header by name, whatever its case: the generated ApiResponse copies urllib3's case-insensitive headers
    into a plain dict, and HTTP/1.1 servers send them in lower case."""
    for key, value in (headers or {}).items():
        if key.lower() == name.lower():
            return value
    return None


def _retryable(error: ApiException) -> bool:
    if error.status == 429 or error.status >= 500:
        return True
    if error.status != 409:
        return False
    # Only the "still running" conflict: a frozen account or a key limit will not change by waiting.
    try:
        return json.loads(error.body or "").get("code") == "idempotency_request_in_progress"
    except (ValueError, AttributeError):
        return False


def _delay(attempt: int, headers: Optional[Mapping[str, str]]) -> Optional[float]:
    retry_after = header(headers, "Retry-After")
    if retry_after is not None and retry_after.strip().isdigit():
        seconds = float(retry_after.strip())
        return None if seconds > MAX_RETRY_AFTER_SECONDS else seconds
    return random.uniform(0, min(MAX_BACKOFF_SECONDS, BASE_DELAY_SECONDS * 2 ** (attempt - 1)))


def _transport_error(error: Exception) -> PlinthError:
    reason = getattr(error, "reason", None) or error
    # urllib3 makes NewConnectionError (refused, unreachable) a subclass of ConnectTimeoutError, for history's
    # sake; it is not a timeout.
    refused = isinstance(error, urllib3.exceptions.NewConnectionError) or isinstance(reason, urllib3.exceptions.NewConnectionError)
    timed_out = not refused and (isinstance(error, urllib3.exceptions.TimeoutError) or isinstance(reason, urllib3.exceptions.TimeoutError))
    return PlinthError(0, "timeout" if timed_out else "connection_failed", detail=str(reason))


def with_retries(attempt: Callable[[], T], max_retries: int, on_retry: Callable[[RetryInfo], None], sleep: Callable[[float], None] = time.sleep) -> T:
    """Runs ``attempt`` until it succeeds, fails for good, or the retries are spent; raises PlinthError."""
    retry = 0
    while True:
        headers: Optional[Mapping[str, str]] = None
        status = 0
        try:
            return attempt()
        except ApiException as error:
            if error.status == 0 or not _retryable(error):
                if error.status == 0:
                    raise PlinthError(0, "connection_failed", detail=str(error.reason)) from error
                raise PlinthError.from_response(error.status, error.body, error.headers) from error
            failure: PlinthError = PlinthError.from_response(error.status, error.body, error.headers)
            headers, status = error.headers, error.status
        except urllib3.exceptions.HTTPError as error:
            failure = _transport_error(error)
        delay = _delay(retry + 1, headers) if retry < max_retries else None
        if delay is None:
            raise failure
        retry += 1
        on_retry(RetryInfo(attempt=retry, status=status, delay=delay))
        sleep(delay)
