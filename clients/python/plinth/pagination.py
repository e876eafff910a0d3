"""Lists, in two forms with the same names on every resource: ``list(...)`` iterates every item, newest first,
fetching pages of ``limit`` as the loop consumes them; ``list_page(...)`` returns one page (``data``,
``has_more``) for callers that keep their own cursor (``starting_after``, ``ending_before``)."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional


def pages(fetch: Callable[[Optional[str]], Any], starting_after: Optional[str]) -> Iterator[Any]:
    """Every item, page after page, each page starting after the last id of the one before."""
    cursor = starting_after
    while True:
        page = fetch(cursor)
        yield from page.data
        # An empty page that claims more would loop on the same cursor forever; stop instead.
        if not page.has_more or not page.data:
            return
        cursor = page.data[-1].id
