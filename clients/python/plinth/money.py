"""``plinth.transactions`` and ``plinth.sandbox``: money
(docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations); transfers are in transfers.py."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from plinth_generated.api.fintech_transactions_api import FintechTransactionsApi
from plinth_generated.models import SimulateDepositRequest, SimulateWithdrawalRequest, Transaction, TransactionList, Transfer

from .filters import Created, created_query, page_query
from .pagination import pages

if TYPE_CHECKING:
    from .client import Plinth


class Transactions:
    def __init__(self, client: Plinth, api: FintechTransactionsApi) -> None:
        self._client = client
        self._api = api

    def list(self, account_id: str, *, created: Optional[Created] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[Transaction]:
        """Every transaction of the account (``created``: only within these bounds), newest first, fetching pages as
        the loop consumes them."""
        return pages(lambda after, before: self.list_page(account_id, created=created, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, account_id: str, *, created: Optional[Created] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> TransactionList:
        """One page of the account's transactions, newest first."""
        query = page_query(limit, starting_after, ending_before) + created_query(created)
        return self._client._get("/v1/fintech/accounts/{id}/transactions", query, "TransactionList", path_params={"id": account_id})

    def retrieve(self, id: str) -> Transaction:
        return self._client._call(lambda _key: self._api.retrieve_transaction_with_http_info(id, _request_timeout=self._client.timeout))


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

    def expire_transfer(self, id: str, *, idempotency_key: Optional[str] = None) -> Transfer:
        """Expires a pending transfer now, as the expiry sweep would at its ``expires_at``: ``expired``, the hold
        released, nothing moved. For testing what an integration does when a hold lapses, without waiting."""
        return self._client._call(lambda key: self._api.simulate_transfer_expiry_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)
