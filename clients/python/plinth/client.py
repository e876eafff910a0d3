"""Plinth: the generated API classes (``plinth_generated``, OpenAPI Generator ``python``) behind one object per
resource (operations/, generated from the API description too; events.py adds the event stream), with
retries and one ``Idempotency-Key`` per POST (retry.py), a default timeout, list iteration (pagination.py), one typed
error (errors.py), secrets as plain strings (secrets.py) and the ``Request-Id`` of the last successful response."""
from __future__ import annotations

import uuid
from typing import Any, Callable, Optional, TypeVar

from plinth_generated import ApiClient, Configuration
from plinth_generated.api.api_keys_api import APIKeysApi
from plinth_generated.api_response import ApiResponse
from plinth_generated.models import SandboxSignupRequest

from .operations import Resources
from .retry import RetryInfo, header, with_retries
from .secrets import SandboxSignup, with_secret

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3


def _api_client(base_url: str, api_key: Optional[str]) -> ApiClient:
    configuration = Configuration(host=base_url.rstrip("/"), access_token=api_key or None)
    # One retry policy, ours (retry.py): urllib3 retrying on its own would resend without our backoff rules.
    configuration.retries = False
    return ApiClient(configuration)


class Plinth(Resources):
    """A client for one API key.

    >>> plinth = Plinth(api_key="sk_test_…", base_url="http://127.0.0.1:8080")
    >>> account = plinth.accounts.create(type="business", country="US")
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        on_retry: Optional[Callable[[RetryInfo], None]] = None,
    ) -> None:
        #: Seconds per attempt.
        self.timeout = timeout
        self.max_retries = max_retries
        #: The ``Request-Id`` of the last successful response.
        self.last_request_id: Optional[str] = None
        #: Whether the last successful response was the stored answer of an earlier request with the same
        #: ``Idempotency-Key`` (``Idempotent-Replayed: true``).
        self.last_replayed = False
        #: How many retries this client has made.
        self.retries = 0
        self._on_retry = on_retry
        self._base_url = base_url
        self._api_key = api_key
        self._api_client = _api_client(base_url, api_key)
        # plinth.accounts, plinth.transfers, …: one attribute per resource (operations/__init__.py, generated).
        self._init_resources()

    @staticmethod
    def sign_up(base_url: str = DEFAULT_BASE_URL, name: Optional[str] = None, *, timeout: float = DEFAULT_TIMEOUT) -> SandboxSignup:
        """A new sandbox organisation and its first key (``result.api_key.key``, a ``str``); needs no key."""
        body = SandboxSignupRequest(name=name) if name is not None else SandboxSignupRequest()
        # A client without a key: the sign-up needs none, and refuses Idempotency-Key, so it gets none (a retry
        # can at worst make a spare organisation).
        anonymous = Plinth("", base_url, timeout=timeout)
        api = APIKeysApi(anonymous._api_client)
        signup = anonymous._call(lambda _key: api.sandbox_signup_with_http_info(body, _request_timeout=timeout))
        return with_secret(SandboxSignup, signup, anonymous)

    def _call(self, send: Callable[[Optional[str]], ApiResponse[T]], idempotency_key: Optional[str] = None, post: bool = False) -> T:
        """Runs one call with retries; ``send`` gets the Idempotency-Key of every attempt (None for a GET)."""
        # One key for the whole call, made before the first attempt, so every retry carries the same one.
        key = idempotency_key if idempotency_key is not None else (str(uuid.uuid4()) if post else None)
        response = with_retries(lambda: send(key), self.max_retries, self._retried)
        self.last_request_id = header(response.headers, "Request-Id")
        self.last_replayed = header(response.headers, "Idempotent-Replayed") == "true"
        return response.data

    def _get(self, path: str, query: list[tuple[str, Any]], response_type: str, path_params: Optional[dict[str, str]] = None) -> Any:
        """A GET whose query the generated method cannot write (filters.py: ``created[gte]=…``,
        ``metadata[key]=value``), decoded into the generated model named ``response_type``, with the same retries,
        timeout and errors as every call."""
        api = self._api_client

        def send(_key: Optional[str]) -> ApiResponse[Any]:
            params = api.param_serialize(method="GET", resource_path=path, path_params=path_params, query_params=query, header_params={"Accept": "application/json"}, auth_settings=["bearerAuth"])
            raw = api.call_api(*params, _request_timeout=self.timeout)
            raw.read()
            return api.response_deserialize(raw, {"200": response_type})

        return self._call(send)

    def _retried(self, info: RetryInfo) -> None:
        self.retries += 1
        if self._on_retry is not None:
            self._on_retry(info)

    def request(self, method: str, path: str, *, query: Optional[dict[str, Any]] = None, body: Any = None, idempotency_key: Optional[str] = None) -> Any:
        """Any call, with the same retries, key, timeout and errors as the typed methods, returning the parsed
        JSON as it came: for fields, parameters or operations newer than this version of the client."""
        api = self._api_client

        def send(key: Optional[str]) -> ApiResponse[Any]:
            headers = {"Accept": "application/json"}
            if body is not None:
                headers["Content-Type"] = "application/json"
            if key is not None:
                headers["Idempotency-Key"] = key
            params = api.param_serialize(method=method, resource_path=path, query_params=list((query or {}).items()), header_params=headers, body=body, auth_settings=["bearerAuth"])
            raw = api.call_api(*params, _request_timeout=self.timeout)
            raw.read()
            return api.response_deserialize(raw, {"2XX": "object"})

        return self._call(send, idempotency_key, post=method.upper() == "POST")
