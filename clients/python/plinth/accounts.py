"""``plinth.accounts``: /v1/fintech/accounts, with each account's balances at a moment and its statements
(docs/api.md#balances-over-time-and-statements)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping, Optional

from plinth_generated.api.fintech_accounts_api import FintechAccountsApi
from plinth_generated.api.fintech_transactions_api import FintechTransactionsApi
from plinth_generated.models import (
    Account,
    AccountBalances,
    AccountList,
    AccountStatement,
    CloseAccountRequest,
    CreateAccountRequest,
    CreateAccountRequestKyb,
    FreezeAccountRequest,
    UpdateAccountRequest,
)

from .filters import Created, CreatedBound, MetadataUpdate, created_query, metadata_query, metadata_update, page_query, time_text
from .pagination import pages

if TYPE_CHECKING:
    from .client import Plinth


class Accounts:
    def __init__(self, client: Plinth, api: FintechAccountsApi, money: FintechTransactionsApi) -> None:
        self._client = client
        self._api = api
        # The generated code files balances and statements with transactions (their tag).
        self._money = money

    def create(self, *, type: str, country: str, kyb: Optional[dict[str, str]] = None, nickname: Optional[str] = None, metadata: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> Account:
        """One Idempotency-Key, reused by the retries (yours with ``idempotency_key=``); ``nickname``: a label for
        people."""
        body = CreateAccountRequest(type=type, country=country, kyb=CreateAccountRequestKyb(**kyb) if kyb is not None else None, nickname=nickname, metadata=dict(metadata) if metadata is not None else None)
        timeout = self._client.timeout
        return self._client._call(lambda key: self._api.create_account_with_http_info(body, idempotency_key=key, _request_timeout=timeout), idempotency_key, post=True)

    def retrieve(self, id: str) -> Account:
        return self._client._call(lambda _key: self._api.retrieve_account_with_http_info(id, _request_timeout=self._client.timeout))

    def update(self, id: str, *, metadata: Optional[MetadataUpdate] = None, nickname: Optional[str] = None, idempotency_key: Optional[str] = None) -> Account:
        """Changes the metadata, the nickname or both (allowed on a closed account): metadata keys given are set, a
        key given ``""`` is removed, ``metadata=""`` removes every key; ``nickname=""`` removes the nickname."""
        body = UpdateAccountRequest(metadata=metadata_update(metadata) if metadata is not None else None, nickname=nickname)
        return self._client._call(lambda key: self._api.update_account_with_http_info(id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def list(self, *, status: Optional[str] = None, created: Optional[Created] = None, metadata: Optional[Mapping[str, str]] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[Account]:
        """Every account, newest first, fetching pages of ``limit`` as the loop consumes them; every filter given
        must hold (``status``: only those in it; ``created``, ``metadata``: filters.py)."""
        return pages(lambda after, before: self.list_page(status=status, created=created, metadata=metadata, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, status: Optional[str] = None, created: Optional[Created] = None, metadata: Optional[Mapping[str, str]] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> AccountList:
        """One page, newest first."""
        query = page_query(limit, starting_after, ending_before, status=status) + created_query(created) + metadata_query(metadata)
        return self._client._get("/v1/fintech/accounts", query, "AccountList")

    def freeze(self, id: str, *, reason: str, note: Optional[str] = None, idempotency_key: Optional[str] = None) -> Account:
        """No debit and no credit until unfrozen. ``reason``: ``suspected_fraud``, ``compliance_review``,
        ``customer_request``, ``other``."""
        body = FreezeAccountRequest(reason=reason, note=note)
        return self._client._call(lambda key: self._api.freeze_account_with_http_info(id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def unfreeze(self, id: str, *, idempotency_key: Optional[str] = None) -> Account:
        return self._client._call(lambda key: self._api.unfreeze_account_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def close(self, id: str, *, reason: Optional[str] = None, note: Optional[str] = None, idempotency_key: Optional[str] = None) -> Account:
        """Final; the balance must be zero. ``reason``: ``customer_request``, ``fraud``, ``compliance``, ``other``."""
        body = CloseAccountRequest(reason=reason, note=note)
        return self._client._call(lambda key: self._api.close_account_with_http_info(id, idempotency_key=key, close_account_request=body, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def balances(self, id: str, at: Optional[CreatedBound] = None) -> AccountBalances:
        """The balances as they stood at ``at`` (default now; a minute such as ``2026-11-24T09:30Z`` means its end):
        the current balance after the last transaction at or before it, and the available balance, less what
        pending transfers held then."""
        moment = time_text("at", at) if at is not None else None
        return self._client._call(lambda _key: self._money.retrieve_account_balances_with_http_info(id, at=moment, _request_timeout=self._client.timeout))

    def statement(self, id: str, from_: CreatedBound, to: CreatedBound) -> AccountStatement:
        """Opening and closing balances of the period [``from_``, ``to``) (a minute means its start; at most 366
        days, a ``to`` after now is now), and its credits and debits: closing = opening + credits − debits. ``from_``
        is the API's ``from``, a keyword in Python."""
        start, end = time_text("from", from_), time_text("to", to)
        return self._client._call(lambda _key: self._money.retrieve_account_statement_with_http_info(start, end, id, _request_timeout=self._client.timeout))
