"""Plinth: the generated API classes (``plinth_generated``, OpenAPI Generator ``python``) behind one object per
resource, with retries and one ``Idempotency-Key`` per create (retry.py), a default timeout, list iteration, one
typed error (errors.py) and the ``Request-Id`` of the last successful response."""
from __future__ import annotations

import uuid
from typing import Any, Callable, Iterator, Optional, TypeVar

from plinth_generated import ApiClient, Configuration
from plinth_generated.api.api_keys_api import APIKeysApi
from plinth_generated.api.fintech_accounts_api import FintechAccountsApi
from plinth_generated.api.fintech_transactions_api import FintechTransactionsApi
from plinth_generated.api.fintech_transfers_api import FintechTransfersApi
from plinth_generated.api_response import ApiResponse
from plinth_generated.models import (
    Account,
    AccountList,
    ApiKey,
    ApiKeyList,
    CreateAccountRequest,
    CreateAccountRequestKyb,
    CreateApiKeyRequest,
    CreateTransferRequest,
    NewApiKey,
    SandboxSignup,
    SandboxSignupRequest,
    SimulateDepositRequest,
    Transaction,
    TransactionList,
    Transfer,
)

from .retry import RetryInfo, header, with_retries

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3


def _api_client(base_url: str, api_key: Optional[str]) -> ApiClient:
    configuration = Configuration(host=base_url.rstrip("/"), access_token=api_key or None)
    # One retry policy, ours (retry.py): urllib3 retrying on its own would resend without our backoff rules.
    configuration.retries = False
    return ApiClient(configuration)


class Plinth:
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
        #: How many retries this client has made.
        self.retries = 0
        self._on_retry = on_retry
        self._api_client = _api_client(base_url, api_key)
        transactions = FintechTransactionsApi(self._api_client)
        self.accounts = Accounts(self, FintechAccountsApi(self._api_client), transactions)
        self.api_keys = ApiKeys(self, APIKeysApi(self._api_client))
        self.transfers = Transfers(self, FintechTransfersApi(self._api_client))
        #: Simulations that only sandbox keys may run.
        self.sandbox = Sandbox(self, transactions)

    @staticmethod
    def sign_up(base_url: str = DEFAULT_BASE_URL, name: Optional[str] = None, *, timeout: float = DEFAULT_TIMEOUT) -> SandboxSignup:
        """A new sandbox organisation and its first key (``result.api_key.key``); needs no key."""
        body = SandboxSignupRequest(name=name) if name is not None else SandboxSignupRequest()
        # A client without a key: the sign-up needs none, and refuses Idempotency-Key, so it gets none (a retry
        # can at worst make a spare organisation).
        anonymous = Plinth("", base_url, timeout=timeout)
        api = APIKeysApi(anonymous._api_client)
        return anonymous._call(lambda _key: api.sandbox_signup_with_http_info(body, _request_timeout=timeout))

    def _call(self, send: Callable[[Optional[str]], ApiResponse[T]], idempotency_key: Optional[str] = None, post: bool = False) -> T:
        # One key for the whole call, made before the first attempt, so every retry carries the same one.
        key = idempotency_key if idempotency_key is not None else (str(uuid.uuid4()) if post else None)
        response = with_retries(lambda: send(key), self.max_retries, self._retried)
        self.last_request_id = header(response.headers, "Request-Id")
        return response.data

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


def _pages(fetch: Callable[[Optional[str]], Any], starting_after: Optional[str]) -> Iterator[Any]:
    """Every item, page after page, each page starting after the last id of the one before."""
    cursor = starting_after
    while True:
        page = fetch(cursor)
        yield from page.data
        # An empty page that claims more would loop on the same cursor forever; stop instead.
        if not page.has_more or not page.data:
            return
        cursor = page.data[-1].id


class Accounts:
    def __init__(self, client: Plinth, api: FintechAccountsApi, transactions_api: FintechTransactionsApi) -> None:
        self._client = client
        self._api = api
        self._transactions_api = transactions_api

    def create(self, *, type: str, country: str, kyb: Optional[dict[str, str]] = None, idempotency_key: Optional[str] = None) -> Account:
        body = CreateAccountRequest(type=type, country=country, kyb=CreateAccountRequestKyb(**kyb) if kyb is not None else None)
        timeout = self._client.timeout
        return self._client._call(lambda key: self._api.create_account_with_http_info(body, idempotency_key=key, _request_timeout=timeout), idempotency_key, post=True)

    def retrieve(self, id: str) -> Account:
        return self._client._call(lambda _key: self._api.retrieve_account_with_http_info(id, _request_timeout=self._client.timeout))

    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> AccountList:
        """One page, newest first."""
        return self._client._call(lambda _key: self._api.list_accounts_with_http_info(limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def list_all(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Iterator[Account]:
        """Every account, newest first, fetching pages of ``limit`` as the loop consumes them."""
        return _pages(lambda cursor: self.list(limit=limit, starting_after=cursor), starting_after)

    def list_transactions(self, id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> TransactionList:
        """One page of the account's transactions, newest first."""
        return self._client._call(lambda _key: self._transactions_api.list_account_transactions_with_http_info(id, limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def transactions(self, id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Iterator[Transaction]:
        """Every transaction of the account, newest first, fetching pages as the loop consumes them."""
        return _pages(lambda cursor: self.list_transactions(id, limit=limit, starting_after=cursor), starting_after)


class Transfers:
    def __init__(self, client: Plinth, api: FintechTransfersApi) -> None:
        self._client = client
        self._api = api

    def create(self, *, from_account_id: str, to_account_id: str, amount: int, currency: str, description: Optional[str] = None, idempotency_key: Optional[str] = None) -> Transfer:
        """Synchronous: the ``posted`` transfer. One Idempotency-Key, reused by retries, so the money moves once."""
        body = CreateTransferRequest(from_account_id=from_account_id, to_account_id=to_account_id, amount=amount, currency=currency, description=description)
        return self._client._call(lambda key: self._api.create_transfer_with_http_info(body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def retrieve(self, id: str) -> Transfer:
        return self._client._call(lambda _key: self._api.retrieve_transfer_with_http_info(id, _request_timeout=self._client.timeout))


class Sandbox:
    def __init__(self, client: Plinth, api: FintechTransactionsApi) -> None:
        self._client = client
        self._api = api

    def deposit(self, account_id: str, *, amount: int, description: Optional[str] = None, idempotency_key: Optional[str] = None) -> Transaction:
        """Money in from nowhere, for testing: the credit transaction."""
        body = SimulateDepositRequest(amount=amount, description=description)
        return self._client._call(lambda key: self._api.simulate_deposit_with_http_info(account_id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)


class ApiKeys:
    def __init__(self, client: Plinth, api: APIKeysApi) -> None:
        self._client = client
        self._api = api

    def create(self, *, mode: Optional[str] = None, idempotency_key: Optional[str] = None) -> NewApiKey:
        body = CreateApiKeyRequest(mode=mode) if mode is not None else CreateApiKeyRequest()
        return self._client._call(lambda key: self._api.create_api_key_with_http_info(create_api_key_request=body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def revoke(self, id: str, *, idempotency_key: Optional[str] = None) -> ApiKey:
        return self._client._call(lambda key: self._api.revoke_api_key_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> ApiKeyList:
        return self._client._call(lambda _key: self._api.list_api_keys_with_http_info(limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def list_all(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None) -> Iterator[ApiKey]:
        return _pages(lambda cursor: self.list(limit=limit, starting_after=cursor), starting_after)
