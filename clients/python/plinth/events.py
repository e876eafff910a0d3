"""``plinth.events``: the generated operations (operations/events.py) and the live event stream, by hand."""
from __future__ import annotations

from typing import Iterator, Optional

from plinth_generated.models import Event

from .operations.events import EventsOperations
from .stream import event_stream


class Events(EventsOperations):
    def stream(self, *, type: Optional[str] = None, after: Optional[int] = None) -> Iterator[Event]:
        """The live events, oldest first, as they happen (GET /v1/events/stream): ``for event in
        plinth.events.stream():``. Resumes by itself after any disconnection, with no gap and no repeat; ``after``
        starts after that sequence (0: every event still kept). Stop by leaving the loop."""
        return event_stream(self._client._base_url, self._client._api_key, type=type, after=after, connect_timeout=self._client.timeout)
