"""Lists, in two forms with the same names on every resource: ``list(...)`` iterates every item, fetching pages of
``limit`` as the loop consumes them (from ``starting_after``, or the newest, the pages walk older; from
``ending_before`` they walk newer, each page ending before the first id of the one before); ``list_page(...)``
returns one page (``data``, ``has_more``) for callers that keep their own cursor. Every page is newest first."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional


def pages(fetch: Callable[[Optional[str], Optional[str]], Any], starting_after: Optional[str], ending_before: Optional[str]) -> Iterator[Any]:
    """Every item, page after page; ``fetch(starting_after, ending_before)`` gets one page."""
    newer = ending_before is not None
    after, before = (None, ending_before) if newer else (starting_after, None)
    while True:
        page = fetch(after, before)
        yield from page.data
        # An empty page that claims more would loop on the same cursor forever; stop instead.
        if not page.has_more or not page.data:
            return
        if newer:
            before = page.data[0].id
        else:
            after = page.data[-1].id
