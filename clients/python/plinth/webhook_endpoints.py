"""``plinth.webhook_endpoints`` and ``plinth.webhook_deliveries``: where events are sent, and each attempt
(docs/api.md#webhooks)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping, Optional

from plinth_generated.api.webhooks_api import WebhooksApi
from plinth_generated.models import (
    CreateWebhookEndpointRequest,
    DeletedWebhookEndpoint,
    Event,
    RotateWebhookEndpointSecretRequest,
    UpdateWebhookEndpointRequest,
    WebhookDelivery,
    WebhookDeliveryList,
    WebhookEndpoint,
    WebhookEndpointList,
)

from .filters import MetadataUpdate, metadata_update
from .pagination import pages
from .secrets import WebhookEndpointWithSecret, with_secret

if TYPE_CHECKING:
    from .client import Plinth

#: "Not given", for update's parameters, where ``None`` means "clear it" (``description=None``).
UNSET: Any = object()


class WebhookEndpoints:
    def __init__(self, client: Plinth, api: WebhooksApi) -> None:
        self._client = client
        self._api = api

    def create(self, *, url: str, enabled_events: list[str], description: Optional[str] = None, metadata: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> WebhookEndpointWithSecret:
        """A new endpoint; ``.secret`` (``whsec_…``, a ``str``) signs its deliveries: keep it. ``enabled_events``:
        event types, or ``["*"]`` for every type."""
        optional = {"description": description, "metadata": dict(metadata) if metadata is not None else None}
        body = CreateWebhookEndpointRequest(url=url, enabled_events=enabled_events, **{k: v for k, v in optional.items() if v is not None})
        created = self._client._call(lambda key: self._api.create_webhook_endpoint_with_http_info(body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)
        return with_secret(WebhookEndpointWithSecret, created, self._client)

    def retrieve(self, id: str) -> WebhookEndpoint:
        return self._client._call(lambda _key: self._api.retrieve_webhook_endpoint_with_http_info(id, _request_timeout=self._client.timeout))

    def list(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[WebhookEndpoint]:
        """Every endpoint, newest first."""
        return pages(lambda after, before: self.list_page(limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> WebhookEndpointList:
        return self._client._call(lambda _key: self._api.list_webhook_endpoints_with_http_info(limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))

    def update(self, id: str, *, url: Optional[str] = UNSET, enabled_events: Optional[list[str]] = UNSET, description: Optional[str] = UNSET, metadata: MetadataUpdate = UNSET, status: Optional[str] = UNSET, idempotency_key: Optional[str] = None) -> WebhookEndpoint:
        """Changes only the fields given; ``description=None`` clears it, ``metadata`` as ``accounts.update`` takes
        it (``""`` removes every key), ``status`` is ``enabled`` or ``disabled``."""
        given = {k: v for k, v in (("url", url), ("enabled_events", enabled_events), ("description", description), ("status", status)) if v is not UNSET}
        if metadata is not UNSET:
            given["metadata"] = metadata_update(metadata)
        body = UpdateWebhookEndpointRequest(**given)
        return self._client._call(lambda key: self._api.update_webhook_endpoint_with_http_info(id, body, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def delete(self, id: str) -> DeletedWebhookEndpoint:
        return self._client._call(lambda _key: self._api.delete_webhook_endpoint_with_http_info(id, _request_timeout=self._client.timeout))

    def rotate_secret(self, id: str, *, expire_previous_in_seconds: Optional[int] = None, idempotency_key: Optional[str] = None) -> WebhookEndpointWithSecret:
        """A new ``.secret``; the previous one keeps signing for ``expire_previous_in_seconds`` (default: the server's)."""
        body = RotateWebhookEndpointSecretRequest(expire_previous_in_seconds=expire_previous_in_seconds)
        rotated = self._client._call(lambda key: self._api.rotate_webhook_endpoint_secret_with_http_info(id, idempotency_key=key, rotate_webhook_endpoint_secret_request=body, _request_timeout=self._client.timeout), idempotency_key, post=True)
        return with_secret(WebhookEndpointWithSecret, rotated, self._client)

    def test(self, id: str, *, idempotency_key: Optional[str] = None) -> Event:
        """Sends a ``webhook_endpoint.test`` event to this endpoint only; returns the event."""
        return self._client._call(lambda key: self._api.test_webhook_endpoint_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)

    def list_deliveries(self, id: str, *, status: Optional[str] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[WebhookDelivery]:
        """Every delivery to the endpoint (``status``: ``pending``, ``succeeded``, ``failed``), newest first."""
        return pages(lambda after, before: self.list_deliveries_page(id, status=status, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_deliveries_page(self, id: str, *, status: Optional[str] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> WebhookDeliveryList:
        return self._client._call(lambda _key: self._api.list_webhook_endpoint_deliveries_with_http_info(id, limit=limit, starting_after=starting_after, ending_before=ending_before, status=status, _request_timeout=self._client.timeout))


class WebhookDeliveries:
    def __init__(self, client: Plinth, api: WebhooksApi) -> None:
        self._client = client
        self._api = api

    def retry(self, id: str, *, idempotency_key: Optional[str] = None) -> WebhookDelivery:
        """Sends the delivery again now (a ``failed`` one starts a new round of attempts); returns the delivery."""
        return self._client._call(lambda key: self._api.retry_webhook_delivery_with_http_info(id, idempotency_key=key, _request_timeout=self._client.timeout), idempotency_key, post=True)
