"""The README's Python examples, run against PLINTH_URL by conformance.sh so that an example that no longer works
fails the client's test. Between the markers: written by scripts/clients/readme.ts from ../README.md (edit the
README, then run `node scripts/clients/readme.ts python`). Above them: what the examples use but do not define
(a client, two funded accounts, a posted transfer, a signed webhook delivery); `main` runs every example in order."""
import base64
import hashlib
import hmac
import json
import os
import sys
import time
from types import SimpleNamespace

from plinth import Plinth, PlinthError

plinth = Plinth(api_key=Plinth.sign_up(os.environ["PLINTH_URL"]).api_key.key, base_url=os.environ["PLINTH_URL"])
account = a = None
b = transfer = secret = request = raw_body = None


def setup():
    global account, a, b, transfer, secret, request, raw_body
    account = plinth.accounts.create(type="business", country="US")
    a = account.id
    b = plinth.accounts.create(type="business", country="US").id
    plinth.sandbox.deposit(a, amount=5000)
    transfer = plinth.transfers.create(from_account_id=a, to_account_id=b, amount=3000, currency="USD")
    # A delivery of a real event, signed as the server signs one (docs/api.md#webhooks).
    secret = "whsec_" + base64.b64encode(b"readme-examples-secret-32-bytes!").decode()
    event = plinth.events.list_page(limit=1).data[0]
    raw_body = json.dumps(plinth.request("GET", f"/v1/events/{event.id}"))
    msg_id, timestamp = event.id, str(int(time.time()))
    mac = hmac.new(base64.b64decode(secret[6:]), f"{msg_id}.{timestamp}.{raw_body}".encode(), hashlib.sha256)
    signature = "v1," + base64.b64encode(mac.digest()).decode()
    request = SimpleNamespace(headers={"webhook-id": msg_id, "webhook-timestamp": timestamp,
                                       "webhook-signature": signature})


# readme-examples:start
def example_1():
    from plinth import PlinthError

    try:
        plinth.transfers.create(from_account_id=a, to_account_id=b, amount=999999, currency="USD")
    except PlinthError as e:
        if e.code != "insufficient_funds":
            raise
        print(e.status, e.param, e.request_id)  # 409 from_account_id req_…

def example_2():
    for frozen in plinth.accounts.list(status="frozen", limit=100):
        print(frozen.id)
    page = plinth.transfers.list_page(account_id=account.id, limit=10)
    if page.has_more:
        page = plinth.transfers.list_page(account_id=account.id, limit=10, starting_after=page.data[-1].id)

def example_3():
    refund = plinth.transfers.reverse(transfer.id, amount=1000, description="refund")  # trr_…
    after = plinth.transfers.retrieve(transfer.id)
    print(after.amount_reversed, after.reversed)  # 1000 False (True once all of it is reversed)
    for r in plinth.transfers.list_reversals(transfer.id):
        print(r.id, r.amount)
    plinth.transfers.retrieve_reversal(transfer.id, refund.id)

def example_4():
    from datetime import datetime, timedelta, timezone

    now = datetime.now(timezone.utc)
    then = plinth.accounts.balances(account.id, at=now)  # any moment since the account was opened
    print(then.current_balance.amount, then.available_balance.amount)
    november = plinth.accounts.statement(account.id, now - timedelta(days=30), now)
    assert november.closing_balance == november.opening_balance + november.credits.amount - november.debits.amount

def example_5():
    read_only = plinth.api_keys.create(name="balances dashboard", permissions={"accounts": "read", "transactions": "read"})
    print(read_only.key[:8], read_only.permissions.transfers)  # rk_test_ none
    reader = Plinth(api_key=read_only.key, base_url=os.environ["PLINTH_URL"])
    reader.accounts.retrieve(account.id)  # allowed: accounts: read
    reader.accounts.balances(account.id)  # allowed: transactions: read
    reader.transfers.create(from_account_id=a, to_account_id=b, amount=100, currency="USD")
    # PlinthError: 403 permission_denied, "This key has transfers: none; POST /v1/fintech/transfers needs transfers: write."

def example_6():
    from plinth import Webhook, WebhookVerificationError

    event = Webhook.verify(secret, request.headers, raw_body, tolerance=300)  # the parsed event (plinth.models.Event)

def example_7():
    # From the oldest account still kept, then live; break ends it and closes the connection.
    for event in plinth.events.stream(type="fintech.account.created", after=0):
        print(event.sequence, event.type, event.data.object["id"])
        if event.data.object["id"] == a:
            break  # the account we waited for

def example_8():
    import asyncio
    import threading

    def follow(stop: threading.Event) -> None:
        for event in plinth.events.stream(type="fintech.account.created", after=0):
            print(event.sequence, event.data.object["id"])  # or hand it to the loop: loop.call_soon_threadsafe(...)
            if stop.is_set() or event.data.object["id"] == a:
                break

    async def main() -> None:
        stop = threading.Event()
        listener = asyncio.create_task(asyncio.to_thread(follow, stop))
        await asyncio.sleep(0)  # … the program goes on meanwhile
        stop.set()
        await listener

    asyncio.run(main())

def example_9():
    checkpoint = plinth.audit.retrieve_checkpoint()
    after = 0
    while after < checkpoint.size:
        for link in plinth.audit.list_chain(after=after, limit=1000).data:
            after = link.sequence
            if after == checkpoint.size:
                assert link.hash == checkpoint.hash  # the chain ends where the checkpoint says
# readme-examples:end


def main():
    setup()
    examples = [f for name, f in sorted(globals().items()) if name.startswith("example_")]
    examples.sort(key=lambda f: int(f.__name__.split("_")[1]))
    for example in examples:
        try:
            example()
        except PlinthError as e:
            # The read-only key's example ends on the call its key may not make, as the README says.
            if e.code != "permission_denied":
                raise
        print(f"ok {example.__name__}", file=sys.stderr)
    print(f"the README's {len(examples)} examples ran")


if __name__ == "__main__":
    main()
