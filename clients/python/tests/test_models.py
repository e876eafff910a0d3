"""The models as the README names them: importable from ``plinth.models``, times as aware ``datetime``s, a statement's
``from`` as ``from_``; against the scripted server of scripted.py (issue: ``from plinth.models import …`` failed,
``var_from``, ``created_at`` a ``str``)."""
import json
from datetime import datetime, timedelta, timezone

from scripted import ACCOUNT

UTC = timezone.utc


def test_the_models_import_from_plinth_models():
    from plinth.models import Account, AccountStatement, Event, Transfer  # what the README names

    import plinth
    import plinth_generated.models

    assert plinth.models.Account is Account is plinth_generated.models.Account
    assert {"Account", "AccountStatement", "Event", "Transfer", "WebhookDelivery"} <= set(plinth.models.__all__)
    assert AccountStatement.model_fields["from_"].annotation is datetime
    assert Event and Transfer


def test_times_are_aware_utc_datetimes_in_answers_lists_and_nested_objects(server):
    plinth = server.client()
    delivery = {"id": "wd_1", "object": "webhook_delivery", "endpoint_id": "we_1", "event_id": "evt_1", "status": "failed",
                "attempts": [{"attempted_at": "2026-11-22T10:01Z", "response_status": 500, "duration_ms": 3, "error": None}],
                "next_attempt_at": None, "created_at": "2026-11-22T10:00:30.250Z"}
    server.script = [{"status": 200, "body": body} for body in [
        {**ACCOUNT, "closed_at": "2026-11-23T08:15Z"},
        {"object": "list", "data": [ACCOUNT], "has_more": False},
        delivery,
    ]]
    account = plinth.accounts.retrieve("acct_X")
    assert account.created_at == datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
    assert account.closed_at == datetime(2026, 11, 23, 8, 15, tzinfo=UTC)
    assert account.created_at.utcoffset() == timedelta(0)
    assert datetime.now(UTC) - account.created_at > timedelta(0)  # arithmetic with the caller's own times
    [listed] = plinth.accounts.list()
    assert isinstance(listed.created_at, datetime)
    attempted = plinth.webhook_deliveries.retry("wd_1")
    assert attempted.created_at == datetime(2026, 11, 22, 10, 0, 30, 250000, tzinfo=UTC)
    assert attempted.attempts[0].attempted_at == datetime(2026, 11, 22, 10, 1, tzinfo=UTC)
    assert attempted.next_attempt_at is None
    # On the way back out, a time is RFC 3339 text again.
    assert json.loads(account.to_json())["created_at"] == "2026-11-22T10:00:00Z"


def test_a_statement_has_from_and_to_as_datetimes(server):
    plinth = server.client()
    totals = {"count": 0, "amount": 0}
    statement = {"object": "fintech.statement", "account_id": "acct_X", "currency": "USD", "from": "2026-11-01T00:00Z",
                 "to": "2026-11-25T00:00Z", "opening_balance": 0, "closing_balance": 0, "credits": totals, "debits": totals, "livemode": False}
    server.script = [{"status": 200, "body": statement}]
    answer = plinth.accounts.statement("acct_X", "2026-11-01T00:00Z", "2026-11-25T00:00Z")
    assert (answer.from_, answer.to) == (datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 11, 25, tzinfo=UTC))
    assert not hasattr(answer, "var_from")
    assert answer.to_dict()["from"] == datetime(2026, 11, 1, tzinfo=UTC)
