"""Steps 20–21 of the conformance scenario (clients/README.md): money held before it moves (pending transfers posted
in part, voided, expired) and the integrator's own references (metadata) with the list filters, sent as
``metadata[key]=value`` and ``created[gte]=…``, which the server must understand for the filtered lists to come
back exactly as asserted."""
from every_resource import ok, refused


def run(plinth, *, first, second):
    def pending(amount, **extra):
        return plinth.transfers.create(from_account_id=first.id, to_account_id=second.id, amount=amount, currency="USD", pending=True, **extra)

    had = plinth.accounts.retrieve(first.id).current_balance.amount
    plinth.sandbox.deposit(first.id, amount=10000)
    hold = pending(4000, metadata={"order": "A-1"}, expires_in_seconds=3600)
    assert (hold.status, hold.posted_amount) == ("pending", None), hold
    assert hold.expires_at, hold
    holding = plinth.accounts.retrieve(first.id)
    assert (holding.current_balance.amount, holding.available_balance.amount) == (had + 10000, had + 10000 - 4000), holding
    posted = plinth.transfers.post(hold.id, amount=2500)
    assert (posted.status, posted.posted_amount) == ("posted", 2500), posted
    after = plinth.accounts.retrieve(first.id)
    assert after.available_balance.amount == after.current_balance.amount == had + 10000 - 2500, after
    voidable = pending(1000)
    assert plinth.transfers.void(voidable.id).status == "voided"
    refused(lambda: plinth.transfers.post(voidable.id), 409, "transfer_not_pending")
    lapsing = pending(500)
    assert plinth.sandbox.expire_transfer(lapsing.id).status == "expired"
    refused(lambda: plinth.transfers.post(lapsing.id), 409, "transfer_expired")
    ok("20 pending transfers: hold, post part, void, expire")

    assert plinth.accounts.update(first.id, metadata={"customer": "c-42"}).metadata == {"customer": "c-42"}
    assert [a.id for a in plinth.accounts.list(metadata={"customer": "c-42"})] == [first.id]
    held = {hold.id, voidable.id, lapsing.id}
    assert not held & {t.id for t in plinth.transfers.list(status="pending")}
    assert [t.id for t in plinth.transfers.list(metadata={"order": "A-1"})] == [hold.id]
    assert plinth.transfers.update(hold.id, metadata={"order": ""}).metadata == {}
    since = list(plinth.events.list(created={"gte": first.created_at}, limit=100))
    assert len(since) >= 1, "no event since the first account was created"
    ok("21 metadata and filters: update, list by metadata, status and created")
