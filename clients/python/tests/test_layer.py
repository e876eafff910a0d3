"""What the live scenario cannot provoke on demand: a 503, a 409 "still running", a dead port, a server that never
answers, against the scripted server of scripted.py."""
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from plinth import NewApiKey, Plinth, PlinthError, ReplayedSecretError
from scripted import ACCOUNT, problem


def test_a_create_survives_503_and_409_in_progress_with_one_key(server):
    server.script = [{"status": 503}, problem(409, "idempotency_request_in_progress", **{"Retry-After": "1"}), {"status": 200, "body": ACCOUNT}]
    statuses = []
    plinth = server.client(on_retry=lambda info: statuses.append(info.status))
    account = plinth.accounts.create(type="business", country="US")
    assert account.id == "acct_X"
    assert plinth.last_request_id == "req_3"
    assert statuses == [503, 409]
    keys = {s["key"] for s in server.seen}
    assert len(server.seen) == 3 and len(keys) == 1
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", keys.pop())


def test_callers_key_wins_get_has_none_and_400_or_other_409_are_not_retried(server):
    plinth = server.client()
    server.script = [problem(400, "parameter_invalid")]
    with pytest.raises(PlinthError) as refused:
        plinth.accounts.create(type="business", country="US", idempotency_key="mine")
    assert (refused.value.status, refused.value.request_id) == (400, "req_P")
    server.script = [problem(409, "account_frozen")]
    with pytest.raises(PlinthError) as conflict:
        plinth.accounts.list_page()
    assert conflict.value.code == "account_frozen"
    assert [s["key"] for s in server.seen] == ["mine", None]


def test_retries_are_bounded(server):
    server.script = [{"status": 502}, {"status": 502}, problem(503, "service_unavailable")]
    plinth = server.client(max_retries=2)
    with pytest.raises(PlinthError) as error:
        plinth.accounts.retrieve("acct_X")
    assert (error.value.status, error.value.code) == (503, "service_unavailable")
    assert len(server.seen) == 3 and plinth.retries == 2


def test_dead_port_and_silent_server_are_the_typed_error_with_status_0(server):
    dead = Plinth(api_key="sk_test_x", base_url="http://127.0.0.1:9", max_retries=1)
    with pytest.raises(PlinthError) as refused:
        dead.accounts.list_page()
    assert (refused.value.status, refused.value.code) == (0, "connection_failed")
    assert dead.retries == 1
    server.script = ["hang"]
    with pytest.raises(PlinthError) as slow:
        server.client(timeout=0.2, max_retries=0).accounts.list_page()
    assert (slow.value.status, slow.value.code) == (0, "timeout")


API_KEY = {"id": "key_X", "object": "api_key", "mode": "sandbox", "hint": "sk_test_…abcd", "name": "ci", "livemode": False,
           "created_at": "2026-11-22T10:00Z", "revoked_at": None, "last_used_at": None, "permissions": None}
ENDPOINT = {"id": "we_X", "object": "webhook_endpoint", "url": "https://example.com/hook", "enabled_events": ["*"], "description": None,
            "status": "enabled", "disabled_reason": None, "metadata": {}, "livemode": False, "created_at": "2026-11-22T10:00Z"}


def test_a_secret_is_a_str_and_reading_it_on_a_replay_raises(server):
    replay = {"Idempotent-Replayed": "true"}
    server.script = [
        {"status": 200, "body": {**API_KEY, "key": "sk_test_secret"}},
        {"status": 200, "body": {**API_KEY, "key": None}, "headers": replay},
        {"status": 200, "body": {**ENDPOINT, "secret": None}, "headers": replay},
    ]
    plinth = server.client()
    created = plinth.api_keys.create(name="ci", idempotency_key="k")
    assert isinstance(created, NewApiKey)
    assert (created.key, created.replayed) == ("sk_test_secret", False)
    again = plinth.api_keys.create(name="ci", idempotency_key="k")
    assert (again.id, again.replayed) == ("key_X", True)
    with pytest.raises(ReplayedSecretError) as missing:
        again.key
    assert (missing.value.field, missing.value.request_id) == ("key", "req_2")
    rotated = plinth.webhook_endpoints.rotate_secret("we_X", idempotency_key="r")
    assert rotated.url == "https://example.com/hook" and rotated.replayed
    with pytest.raises(ReplayedSecretError):
        rotated.secret


ACCOUNT_NUMBER = {"id": "an_X", "object": "fintech.account_number", "account_id": "acct_X", "routing_number": "110000000",
                  "account_number_last4": "6789", "name": "Main", "status": "active", "inbound_debits": "allowed",
                  "livemode": False, "created_at": "2026-11-28T10:00Z"}


def test_an_account_number_is_a_str_once_and_reading_it_on_a_replay_raises(server):
    """docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only."""
    server.script = [
        {"status": 200, "body": {**ACCOUNT_NUMBER, "account_number": "123456789012"}},
        {"status": 200, "body": {**ACCOUNT_NUMBER, "account_number": None}, "headers": {"Idempotent-Replayed": "true"}},
        {"status": 200, "body": {**ACCOUNT_NUMBER, "account_number": None}},
    ]
    plinth = server.client()
    created = plinth.account_numbers.create(account_id="acct_X", name="Main", idempotency_key="k")
    assert (created.account_number, created.replayed) == ("123456789012", False)
    again = plinth.account_numbers.create(account_id="acct_X", name="Main", idempotency_key="k")
    assert (again.id, again.replayed, again.account_number_last4) == ("an_X", True, "6789")
    with pytest.raises(ReplayedSecretError) as missing:
        again.account_number
    assert missing.value.field == "account_number"
    assert plinth.account_numbers.retrieve("an_X").account_number is None  # the generated model: None is a value


def test_permissions_make_a_restricted_key_and_read_back_none_for_a_full_key(server):
    """docs/api.md#keys-and-the-sandbox: the groups given, and only those, are sent; the answer lists every group."""
    groups = ["accounts", "transfers", "transactions", "sandbox", "events", "webhook_endpoints", "api_keys", "requests", "payments"]
    granted = {group: "none" for group in groups} | {"accounts": "read", "transactions": "read"}
    server.script = [
        {"status": 200, "body": {**API_KEY, "hint": "rk_test_…abcd", "permissions": granted, "key": "rk_test_secret"}},
        {"status": 200, "body": {**API_KEY, "key": "sk_test_secret"}},
    ]
    plinth = server.client()
    restricted = plinth.api_keys.create(name="ci", permissions={"accounts": "read", "transactions": "read"})
    assert json.loads(server.seen[0]["body"]) == {"name": "ci", "permissions": {"accounts": "read", "transactions": "read"}}
    assert restricted.key == "rk_test_secret"
    assert (restricted.permissions.accounts, restricted.permissions.transfers, restricted.permissions.requests) == ("read", "none", "none")
    full = plinth.api_keys.create()
    assert json.loads(server.seen[1]["body"]) == {}
    assert full.permissions is None


def test_every_method_that_methods_json_names_exists():
    manifest = json.loads((Path(__file__).parent.parent / "methods.json").read_text())
    plinth = Plinth(api_key="sk_test_x", base_url="http://127.0.0.1:9")
    owners = {"Plinth": Plinth, **vars(plinth)}
    names = [name for methods in manifest.values() for name in methods]
    assert len(names) >= len(manifest)
    for name in names:
        owner, method = name.split(".")
        assert callable(getattr(owners.get(owner), method, None)), f"{name} is not a method of the installed package"


def test_list_follows_the_cursor_older_from_starting_after_newer_from_ending_before(server):
    def page(ids, more):
        return {"status": 200, "body": {"object": "list", "data": [{**ACCOUNT, "id": i} for i in ids], "has_more": more}}

    plinth = server.client()
    server.script = [page(["acct_4", "acct_3"], True), page(["acct_2"], False)]
    assert [a.id for a in plinth.accounts.list(status="frozen", limit=2)] == ["acct_4", "acct_3", "acct_2"]
    assert [s["path"] for s in server.seen] == ["/v1/fintech/accounts?limit=2&status=frozen", "/v1/fintech/accounts?limit=2&starting_after=acct_3&status=frozen"]
    server.seen = []
    server.script = [page(["acct_6", "acct_5"], True), page(["acct_8", "acct_7"], False)]
    assert [a.id for a in plinth.accounts.list(ending_before="acct_4", limit=2)] == ["acct_6", "acct_5", "acct_8", "acct_7"]
    assert [s["path"] for s in server.seen] == ["/v1/fintech/accounts?limit=2&ending_before=acct_4", "/v1/fintech/accounts?limit=2&ending_before=acct_6"]


def test_filters_go_on_the_wire_as_deep_objects_on_every_page_and_updates_send_the_mapping_or_empty_string(server):
    def page(ids, more):
        return {"status": 200, "body": {"object": "list", "data": [{**ACCOUNT, "id": i} for i in ids], "has_more": more}}

    plinth = server.client()
    server.script = [page(["acct_2"], True), page(["acct_1"], False)]
    created = {"gte": "2026-11-24T00:00Z", "lt": datetime(2026, 11, 25, 9, 30, tzinfo=timezone(timedelta(hours=1)))}
    found = [a.id for a in plinth.accounts.list(status="active", created=created, metadata={"order": "A-1", "ship to": "Zürich & co"}, limit=1)]
    assert found == ["acct_2", "acct_1"]
    # Written by hand from docs/api.md#metadata-your-own-references: bracketed names, percent-encoded; a datetime as RFC
    # 3339 with its offset.
    filters = "created%5Bgte%5D=2026-11-24T00%3A00Z&created%5Blt%5D=2026-11-25T09%3A30%3A00%2B01%3A00&metadata%5Border%5D=A-1&metadata%5Bship%20to%5D=Z%C3%BCrich%20%26%20co"
    assert [s["path"] for s in server.seen] == [
        f"/v1/fintech/accounts?limit=1&status=active&{filters}",
        f"/v1/fintech/accounts?limit=1&starting_after=acct_2&status=active&{filters}",
    ]
    assert parse_qsl(urlsplit(server.seen[0]["path"]).query)[2:] == [
        ("created[gte]", "2026-11-24T00:00Z"), ("created[lt]", "2026-11-25T09:30:00+01:00"), ("metadata[order]", "A-1"), ("metadata[ship to]", "Zürich & co")]

    server.seen = []
    server.script = [page([], False)] * 3
    plinth.transfers.list_page(status="pending", metadata={"order": "A-1"})
    plinth.transactions.list_page("acct_X", created={"lte": "2026-11-24T00:00Z"})
    plinth.events.list_page(created={})
    assert [s["path"] for s in server.seen] == [
        "/v1/fintech/transfers?status=pending&metadata%5Border%5D=A-1",
        "/v1/fintech/accounts/acct_X/transactions?created%5Blte%5D=2026-11-24T00%3A00Z",
        "/v1/events",
    ]
    with pytest.raises(ValueError, match="timezone-aware"):
        plinth.events.list_page(created={"gte": datetime(2026, 11, 24)})
    with pytest.raises(ValueError, match="not since"):
        plinth.events.list_page(created={"since": "2026-11-24T00:00Z"})

    server.seen = []
    server.script = [{"status": 200, "body": ACCOUNT}] * 2
    plinth.accounts.update("acct_X", metadata={"customer": "c-42", "old": ""})
    plinth.accounts.update("acct_X", metadata="")
    assert [(s["method"], s["path"], json.loads(s["body"])) for s in server.seen] == [
        ("POST", "/v1/fintech/accounts/acct_X", {"metadata": {"customer": "c-42", "old": ""}}),
        ("POST", "/v1/fintech/accounts/acct_X", {"metadata": ""}),
    ]
    with pytest.raises(ValueError):
        plinth.accounts.update("acct_X", metadata="all")


def test_the_request_log_sends_its_filters_as_deep_objects_and_refuses_a_naive_datetime(server):
    plinth = server.client()
    server.script = [{"status": 200, "body": {"object": "list", "data": [], "has_more": False}}]
    kolkata = timezone(timedelta(hours=5, minutes=30))
    page = plinth.requests.list_page(status=409, created={"gte": datetime(2026, 11, 25, 14, 30, tzinfo=kolkata), "lt": "2026-11-26T00:00Z"})
    assert page.data == []
    assert parse_qsl(urlsplit(server.seen[0]["path"]).query) == [
        ("status", "409"), ("created[gte]", "2026-11-25T14:30:00+05:30"), ("created[lt]", "2026-11-26T00:00Z")]
    with pytest.raises(ValueError, match="timezone-aware"):
        plinth.requests.list_page(created={"gte": datetime(2026, 11, 25)})
    with pytest.raises(ValueError, match="not after"):
        plinth.requests.list_page(created={"after": "2026-11-25T09:00Z"})
