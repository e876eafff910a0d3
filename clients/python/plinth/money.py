"""``plinth.transactions``, ``plinth.transfers`` and ``plinth.sandbox``: money (contract §10)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from plinth_generated.api.fintech_transactions_api import FintechTransactionsApi
from plinth_generated.api.fintech_transfers_api import FintechTransfersApi
from plinth_generated.models import (
    CreateTransferRequest,
    SimulateDepositRequest,
    SimulateWithdrawalRequest,
    Transaction,
    TransactionList,
    Transfer,
    TransferList,
)

from .pagination import pages

if TYPE_CHECKING:
    from .client import Plinth


class Transactions:
    def __init__(self, client: Plinth, api: FintechTransactionsApi) -> None:
        self._client = client
        self._api = api

    def list(self, account_id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[Transaction]:
        """Every transaction of the account, newest first, fetching pages as the loop consumes them."""
        return pages(lambda after, before: self.list_page(account_id, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, account_id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> TransactionList:
        """One page of the account's transactions, newest first."""
        return self._client._call(lambda _key: self._api.list_account_transactions_with_http_info(account_id, limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def retrieve(self, id: str) -> Transaction:
        return self._client._call(lambda _key: self._api.retrieve_transaction_with_http_info(id, _request_timeout=self._client.timeout))


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

    def list(self, *, account_id: Optional[str] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[Transfer]:
        """Every transfer (``account_id``: only those from or to it), newest first."""
        return pages(lambda after, before: self.list_page(account_id=account_id, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, account_id: Optional[str] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> TransferList:
        """One page, newest first."""
        return self._client._call(lambda _key: self._api.list_transfers_with_http_info(account_id=account_id, limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))


class Sandbox:
    """Simulations that only sandbox keys may run."""

    def __init__(self, client: Plinth, api: FintechTransactionsApi) -> None:
        self._client = client
        self._api = api

    def deposit(self, account_id: str, *, amount: int, description: Optional[str] = None, idempotency_key: Optional[str] = None) -> Transaction:
        """Money in from nowhere, for testing: the credit transaction."""
        body = SimulateDepositRequest(amount=amount, description=description)
        return self._client._call(lambda key: self._api.simulate_deposit_with_http_info(account_id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def withdraw(self, account_id: str, *, amount: int, description: Optional[str] = None, idempotency_key: Optional[str] = None) -> Transaction:
        """Money out to nowhere, for testing: the debit transaction (a negative amount)."""
        body = SimulateWithdrawalRequest(amount=amount, description=description)
        return self._client._call(lambda key: self._api.simulate_withdrawal_with_http_info(account_id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)
