"""Metadata and the ``created`` filter (docs/api.md#metadata-your-own-references), as the layer's methods take them.

On the wire a list filter is OpenAPI's deepObject: ``created[gte]=…`` and ``metadata[order]=A-1``. The generated
``python`` code cannot write that (it sends the object's ``str()``, and types a metadata filter as a map of maps), so
the lists that take these filters build their query here and send it through ``Plinth._get``.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Mapping, Optional, Union

from plinth_generated.models import UpdateWebhookEndpointRequestMetadata

#: A time the API takes (a ``created`` bound, a balance's ``at``, a statement's period): an aware ``datetime`` (sent
#: as RFC 3339 with its offset), or text the API takes (``2026-11-24T09:30Z``, the form every ``created_at`` has,
#: names that whole minute; RFC 3339 with an offset).
CreatedBound = Union[datetime, str]

#: Only objects created within these bounds: ``{"gte": "2026-11-24T00:00Z", "lt": datetime.now(timezone.utc)}``.
Created = Mapping[str, CreatedBound]

#: A change to metadata: the keys given are set, a key given ``""`` is removed, keys not named stay; ``""`` instead of
#: a mapping removes every key (the API's own ``"metadata": ""``, as in Stripe's libraries).
MetadataUpdate = Union[Mapping[str, str], Literal[""]]

_BOUNDS = ("gte", "gt", "lte", "lt")


def created_query(created: Optional[Created]) -> list[tuple[str, str]]:
    """``created[gte]=…`` pairs, in the order gte, gt, lte, lt; none for ``None`` or ``{}``."""
    given = dict(created or {})
    unknown = set(given) - set(_BOUNDS)
    if unknown:
        raise ValueError(f"created takes {', '.join(_BOUNDS)}; not {', '.join(sorted(unknown))}")
    pairs = []
    for bound in _BOUNDS:
        value = given.get(bound)
        if value is None:
            continue
        pairs.append((f"created[{bound}]", time_text(f"created[{bound}]", value)))
    return pairs


def time_text(name: str, value: CreatedBound) -> str:
    """A time as the query carries it: text as given, an aware ``datetime`` as RFC 3339 with its offset."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError(f"{name}: give a timezone-aware datetime (the API needs its offset)")
        return value.isoformat()
    return value


def metadata_query(metadata: Optional[Mapping[str, str]]) -> list[tuple[str, str]]:
    """``metadata[key]=value`` pairs: every one must hold."""
    return [(f"metadata[{key}]", value) for key, value in (metadata or {}).items() if value is not None]


def metadata_update(metadata: MetadataUpdate) -> UpdateWebhookEndpointRequestMetadata:
    """The body's ``metadata`` for an update: the mapping, or ``""`` (clear every key)."""
    if isinstance(metadata, str) and metadata != "":
        raise ValueError('metadata="" removes every key; any other string is not metadata (give a mapping)')
    return UpdateWebhookEndpointRequestMetadata(metadata if isinstance(metadata, str) else dict(metadata))


def page_query(limit: Optional[int], starting_after: Optional[str], ending_before: Optional[str], **filters: Any) -> list[tuple[str, Any]]:
    """The plain query parameters of a list, in the order the generated methods write them, the unset left out."""
    given = {"limit": limit, "starting_after": starting_after, "ending_before": ending_before, **filters}
    return [(name, value) for name, value in given.items() if value is not None]
