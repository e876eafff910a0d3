"""Reversals, balances at a moment, statements and nicknames on the wire, against the scripted server of scripted.py
(docs/api.md#correcting-a-transfer, docs/api.md#balances-over-time-and-statements)."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from scripted import ACCOUNT


def test_reversals_balances_and_statements_their_paths_query_and_body_a_key_on_the_reversal_only(server):
    plinth = server.client()
    reversal = {"id": "trr_1", "object": "fintech.transfer_reversal", "transfer_id": "tr_X", "amount": 1000, "currency": "USD",
                "description": "refund", "metadata": {}, "livemode": False, "created_at": "2026-11-25T09:30Z"}
    money = {"amount": 0, "currency": "USD"}
    balances = {"object": "fintech.balances", "account_id": "acct_X", "at": "2026-11-25T09:30Z", "current_balance": money,
                "available_balance": money, "last_transaction_id": None, "livemode": False}
    totals = {"count": 0, "amount": 0}
    statement = {"object": "fintech.statement", "account_id": "acct_X", "currency": "USD", "from": "2026-11-01T00:00Z",
                 "to": "2026-11-25T00:00Z", "opening_balance": 0, "closing_balance": 0, "credits": totals, "debits": totals, "livemode": False}
    answers = [reversal, {"object": "list", "data": [reversal], "has_more": False}, reversal, balances, balances, statement, {**ACCOUNT, "nickname": None}]
    server.script = [{"status": 200, "body": body} for body in answers]
    assert plinth.transfers.reverse("tr_X", amount=1000, description="refund").amount == 1000
    assert [r.id for r in plinth.transfers.list_reversals("tr_X", limit=2, starting_after="trr_9")] == ["trr_1"]
    plinth.transfers.retrieve_reversal("tr_X", "trr_1")
    plinth.accounts.balances("acct_X")
    plinth.accounts.balances("acct_X", at=datetime(2026, 11, 25, 10, 30, 5, 7000, tzinfo=timezone(timedelta(hours=1))))
    assert plinth.accounts.statement("acct_X", "2026-11-01T00:00Z", to=datetime(2026, 11, 25, tzinfo=timezone.utc)).closing_balance == 0
    assert plinth.accounts.update("acct_X", nickname="").nickname is None
    # Written by hand from docs/api.md#correcting-a-transfer and #balances-over-time-and-statements.
    assert [(s["method"], s["path"], json.loads(s["body"]) if s["body"] else None, s["key"] is not None) for s in server.seen] == [
        ("POST", "/v1/fintech/transfers/tr_X/reversals", {"amount": 1000, "description": "refund"}, True),
        ("GET", "/v1/fintech/transfers/tr_X/reversals?limit=2&starting_after=trr_9", None, False),
        ("GET", "/v1/fintech/transfers/tr_X/reversals/trr_1", None, False),
        ("GET", "/v1/fintech/accounts/acct_X/balances", None, False),
        ("GET", "/v1/fintech/accounts/acct_X/balances?at=2026-11-25T10%3A30%3A05.007000%2B01%3A00", None, False),
        ("GET", "/v1/fintech/accounts/acct_X/statement?from=2026-11-01T00%3A00Z&to=2026-11-25T00%3A00%3A00%2B00%3A00", None, False),
        ("POST", "/v1/fintech/accounts/acct_X", {"nickname": ""}, True),
    ]
    with pytest.raises(ValueError, match="timezone-aware"):
        plinth.accounts.balances("acct_X", at=datetime(2026, 11, 25))
