"""``plinth.requests``: /v1/requests, the request log, newest first (docs/api.md#the-request-log)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from plinth_generated.api.requests_api import RequestsApi
from plinth_generated.models import RequestLog, RequestLogList

from .filters import Created, created_query, page_query
from .pagination import pages

if TYPE_CHECKING:
    from .client import Plinth


class Requests:
    def __init__(self, client: Plinth, api: RequestsApi) -> None:
        self._client = client
        self._api = api

    def list(self, *, status: Optional[int] = None, method: Optional[str] = None, created: Optional[Created] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> Iterator[RequestLog]:
        """Every recorded request, newest first (``status``: of the answer, e.g. 409; ``method``: ``GET``, ``HEAD``,
        ``POST`` or ``DELETE``; ``created``: only within these bounds). An entry is written a few hundred milliseconds
        after its answer."""
        return pages(lambda after, before: self.list_page(status=status, method=method, created=created, limit=limit, starting_after=after, ending_before=before), starting_after, ending_before)

    def list_page(self, *, status: Optional[int] = None, method: Optional[str] = None, created: Optional[Created] = None, limit: Optional[int] = None, starting_after: Optional[str] = None, ending_before: Optional[str] = None) -> RequestLogList:
        """One page, newest first."""
        query = page_query(limit, starting_after, ending_before, status=status, method=method) + created_query(created)
        return self._client._get("/v1/requests", query, "RequestLogList")

    def retrieve(self, id: str) -> RequestLog:
        """One request, by the ``Request-Id`` of its answer."""
        return self._client._call(lambda _key: self._api.retrieve_request_with_http_info(id, _request_timeout=self._client.timeout))
