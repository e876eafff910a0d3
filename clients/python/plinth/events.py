"""``plinth.events``: /v1/events, what happened, newest first (docs/api.md#events)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from plinth_generated.api.events_api import EventsApi
from plinth_generated.models import Event, EventList, WebhookDelivery, WebhookDeliveryList

from .filters import Created, created_query, page_query
from .pagination import pages
from .stream import event_stream

if TYPE_CHECKING:
    from .client import Plinth


class Events:
    def __init__(self, client: Plinth, api: EventsApi) -> None:
        self._client = client
        self._api = api

    def list(self, *, type: Optional[str] = None, created: Optional[Created] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[Event]:
        """Every event (``type``: only that one, e.g. ``fintech.account.created``; ``created``: only within these
        bounds), newest first."""
        return pages(lambda after, before: self.list_page(type=type, created=created, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, type: Optional[str] = None, created: Optional[Created] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> EventList:
        """One page, newest first."""
        query = page_query(limit, starting_after, ending_before, type=type) + created_query(created)
        return self._client._get("/v1/events", query, "EventList")

    def stream(self, *, type: Optional[str] = None, after: Optional[int] = None) -> Iterator[Event]:
        """The live events, oldest first, as they happen (GET /v1/events/stream): ``for event in
        plinth.events.stream():``. Resumes by itself after any disconnection, with no gap and no repeat; ``after``
        starts after that sequence (0: every event still kept). Stop by leaving the loop."""
        return event_stream(self._client._base_url, self._client._api_key, type=type, after=after, connect_timeout=self._client.timeout)

    def retrieve(self, id: str) -> Event:
        return self._client._call(lambda _key: self._api.retrieve_event_with_http_info(id, _request_timeout=self._client.timeout))

    def list_deliveries(self, id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[WebhookDelivery]:
        """Every delivery of the event, to every endpoint, newest first."""
        return pages(lambda after, before: self.list_deliveries_page(id, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_deliveries_page(self, id: str, *, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> WebhookDeliveryList:
        """One page of the event's deliveries."""
        return self._client._call(lambda _key: self._api.list_event_deliveries_with_http_info(id, limit=limit, starting_after=starting_after, ending_before=ending_before, _request_timeout=self._client.timeout))
