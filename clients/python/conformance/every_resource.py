"""Steps 13–19 of the conformance scenario (clients/README.md): every other resource, through the layer's methods
only — freeze, unfreeze and close, a withdrawal, transfers by account, events, the rest of a webhook endpoint's
life and its deliveries, API keys. Also the two helpers every step uses."""
import time

from plinth import PlinthError


def ok(name):
    print(f"ok {name}", flush=True)


def refused(call, status, code):
    """The call must raise the client's one typed error with this status and code; returns it."""
    try:
        call()
    except PlinthError as error:
        assert error.status == status, error
        assert error.code == code, error
        assert (error.request_id or "").startswith("req_"), error.request_id
        return error
    raise AssertionError(f"expected {status} {code}, the call succeeded")


def wait_for(what, seconds, probe):
    """Polls ``probe`` every 100 ms until it returns something other than None, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = probe()
        if found is not None:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {seconds} s")


def run(plinth, *, first, second, transfer_id, endpoint, test_event_id):
    frozen = plinth.accounts.freeze(second.id, reason="compliance_review", note="conformance")
    assert frozen.status == "frozen", frozen.status
    assert frozen.status_details is not None and frozen.status_details.reason == "compliance_review", frozen.status_details
    assert [a.id for a in plinth.accounts.list(status="frozen")] == [second.id]
    error = refused(lambda: plinth.transfers.create(from_account_id=first.id, to_account_id=second.id, amount=1, currency="USD"), 409, "account_frozen")
    assert error.param == "to_account_id", error.param
    active = plinth.accounts.unfreeze(second.id)
    assert active.status == "active" and active.status_details is None, (active.status, active.status_details)
    ok("13 freeze, list frozen, a transfer to it refused, unfreeze")

    debit = plinth.sandbox.withdraw(first.id, amount=500)
    assert (debit.amount, debit.balance_after) == (-500, 7000), debit
    ok("14 withdraw (sandbox)")

    assert [t.id for t in plinth.transfers.list(account_id=second.id)] == [transfer_id]
    transfer = plinth.transfers.retrieve(transfer_id)
    assert (transfer.id, transfer.to_account_id) == (transfer_id, second.id)
    ok("15 transfers of an account")

    third = plinth.accounts.create(type="business", country="US")
    closed = plinth.accounts.close(third.id, reason="customer_request")
    assert closed.status == "closed" and closed.closed_at, (closed.status, closed.closed_at)
    refused(lambda: plinth.sandbox.deposit(third.id, amount=1), 409, "account_closed")
    ok("16 close an account; a deposit to it refused")

    events = list(plinth.events.list(type="fintech.account.created", limit=2))
    assert len(events) >= 3, len(events)
    assert all(e.type == "fintech.account.created" for e in events)
    assert all(a.sequence > b.sequence for a, b in zip(events, events[1:])), [e.sequence for e in events]
    again = plinth.events.retrieve(events[0].id)
    assert (again.id, again.sequence) == (events[0].id, events[0].sequence)
    ok("17 events by type, newest first; retrieve one")

    assert plinth.webhook_endpoints.update(endpoint.id, description="updated").description == "updated"
    # The receiver has the delivery (step 12); the server marks it succeeded once the answer is in.
    delivery = wait_for("the test delivery, succeeded", 10, lambda: next(
        (d for d in plinth.webhook_endpoints.list_deliveries(endpoint.id) if d.event_id == test_event_id and d.status == "succeeded"), None))
    assert delivery.id in [d.id for d in plinth.events.list_deliveries(test_event_id)]
    assert plinth.webhook_deliveries.retry(delivery.id).id == delivery.id
    secret: str = plinth.webhook_endpoints.rotate_secret(endpoint.id).secret
    assert secret.startswith("whsec_") and secret != endpoint.secret, secret
    assert endpoint.id in [e.id for e in plinth.webhook_endpoints.list()]
    assert plinth.webhook_endpoints.delete(endpoint.id).deleted is True
    refused(lambda: plinth.webhook_endpoints.retrieve(endpoint.id), 404, "resource_not_found")
    ok("18 update, deliveries, retry, rotate, list and delete a webhook endpoint")

    created = plinth.api_keys.create(name="conformance")
    key: str = created.key
    assert key.startswith("sk_test_") and created.name == "conformance", (key[:8], created.name)
    assert created.id in [k.id for k in plinth.api_keys.list()]
    assert plinth.api_keys.retrieve(created.id).id == created.id
    assert plinth.api_keys.revoke(created.id).revoked_at
    ok("19 create, list, retrieve and revoke an API key")
