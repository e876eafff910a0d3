"""``plinth.transfers``: /v1/fintech/transfers, money from one account to another, at once or held first
(docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations,
docs/api.md#holding-money-pending-transfers-and-the-two-balances), and its corrections, the reversals
(docs/api.md#correcting-a-transfer)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping, Optional

from plinth_generated.api.fintech_transfers_api import FintechTransfersApi
from plinth_generated.models import CreateTransferRequest, CreateTransferReversalRequest, PostTransferRequest, Transfer, TransferList, TransferReversal, TransferReversalList, UpdateTransferRequest

from .filters import Created, MetadataUpdate, created_query, metadata_query, metadata_update, page_query
from .pagination import pages

if TYPE_CHECKING:
    from .client import Plinth


class Transfers:
    def __init__(self, client: Plinth, api: FintechTransfersApi) -> None:
        self._client = client
        self._api = api

    def create(self, *, from_account_id: str, to_account_id: str, amount: int, currency: str, description: Optional[str] = None, pending: Optional[bool] = None, expires_in_seconds: Optional[int] = None, metadata: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> Transfer:
        """Moves the money at once (``posted``), or with ``pending=True`` holds it on the sender until ``post``,
        ``void`` or ``expires_in_seconds`` (default 7 days). One Idempotency-Key, reused by retries, so money moves
        once."""
        body = CreateTransferRequest(from_account_id=from_account_id, to_account_id=to_account_id, amount=amount, currency=currency, description=description, pending=pending, expires_in_seconds=expires_in_seconds, metadata=dict(metadata) if metadata is not None else None)
        return self._client._call(lambda key: self._api.create_transfer_with_http_info(body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def retrieve(self, id: str) -> Transfer:
        return self._client._call(lambda _key: self._api.retrieve_transfer_with_http_info(id, _request_timeout=self._client.timeout))

    def update(self, id: str, *, metadata: MetadataUpdate, idempotency_key: Optional[str] = None) -> Transfer:
        """Changes the metadata only, in any status: keys given are set, a key given ``""`` is removed,
        ``metadata=""`` removes every key."""
        body = UpdateTransferRequest(metadata=metadata_update(metadata))
        return self._client._call(lambda key: self._api.update_transfer_with_http_info(id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def post(self, id: str, *, amount: Optional[int] = None, idempotency_key: Optional[str] = None) -> Transfer:
        """Moves a pending transfer's money: all of it, or ``amount`` of it (the rest returns to the sender's
        available balance). Not pending: 409 ``transfer_not_pending``; past ``expires_at``: 409 ``transfer_expired``."""
        body = PostTransferRequest(amount=amount)
        return self._client._call(lambda key: self._api.post_transfer_with_http_info(id, idempotency_key=key, post_transfer_request=body, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def void(self, id: str, *, idempotency_key: Optional[str] = None) -> Transfer:
        """Releases a pending transfer's hold; nothing moves. The same refusals as ``post``."""
        return self._client._call(lambda key: self._api.void_transfer_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def list(self, *, account_id: Optional[str] = None, status: Optional[str] = None, created: Optional[Created] = None, metadata: Optional[Mapping[str, str]] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[Transfer]:
        """Every transfer, newest first; every filter given must hold (``account_id``: from or to it; ``status``:
        ``pending``, ``posted``, ``voided``, ``expired``; ``created``, ``metadata``: filters.py)."""
        return pages(lambda after, before: self.list_page(account_id=account_id, status=status, created=created, metadata=metadata, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, account_id: Optional[str] = None, status: Optional[str] = None, created: Optional[Created] = None, metadata: Optional[Mapping[str, str]] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> TransferList:
        """One page, newest first."""
        query = page_query(limit, starting_after, ending_before, account_id=account_id, status=status) + created_query(created) + metadata_query(metadata)
        return self._client._get("/v1/fintech/transfers", query, "TransferList")

    def reverse(self, id: str, *, amount: Optional[int] = None, description: Optional[str] = None, metadata: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> TransferReversal:
        """Moves a posted transfer's money back to its sender, linked to it: all that remains (``posted_amount`` −
        ``amount_reversed``), or ``amount`` of it; in several parts if need be. Not posted, or fully reversed: 409
        ``transfer_not_reversible``. One Idempotency-Key, reused by retries, so the money moves back once."""
        body = CreateTransferReversalRequest(amount=amount, description=description, metadata=dict(metadata) if metadata is not None else None)
        return self._client._call(lambda key: self._api.create_transfer_reversal_with_http_info(id, idempotency_key=key, create_transfer_reversal_request=body, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def list_reversals(self, id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[TransferReversal]:
        """Every reversal of the transfer, newest first."""
        return pages(lambda after, before: self.list_reversals_page(id, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_reversals_page(self, id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> TransferReversalList:
        """One page of the transfer's reversals, newest first."""
        return self._client._call(lambda _key: self._api.list_transfer_reversals_with_http_info(id, limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def retrieve_reversal(self, id: str, reversal_id: str) -> TransferReversal:
        """One reversal (``trr_…``) of the transfer ``id``."""
        return self._client._call(lambda _key: self._api.retrieve_transfer_reversal_with_http_info(id, reversal_id, _request_timeout=self._client.timeout))
