"""A request body's fields as the generated methods (plinth/operations/) pass them: what was given, converted."""
from __future__ import annotations

from typing import Any, Callable

#: "Not given", for a field where ``None`` means "clear it" (an endpoint's ``description=None``).
UNSET: Any = object()


def body_fields(fields: dict[str, Any], nullable: tuple[str, ...] = (), **convert: Callable[[Any], Any]) -> dict[str, Any]:
    """The fields to send: UNSET ones never, None ones only where the API takes null (``nullable``), each value
    through its converter when one is named (``metadata=dict``, ``kyb=CreateAccountRequestKyb.from_dict``)."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if value is UNSET or (value is None and name not in nullable):
            continue
        out[name] = convert[name](value) if name in convert and value is not None else value
    return out
