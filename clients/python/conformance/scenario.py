"""The client conformance scenario (clients/README.md), as an application would write it, against the installed
``plinth-client`` distribution. Each step prints one line; the first failed assertion ends the run (exit 1).
Steps 1–12 are here, 13–19 (every other resource) in every_resource.py, 20–21 (pending transfers, metadata, filters)
in holds.py, 22 (the request log) in request_log.py, 23 (reversals, balances at a moment, statements,
nicknames) in reversals.py, 24 (a read-only key) in restricted.py, 25 (the event
stream) in stream.py, 26 (payments on the sandbox clock) in payments.py, 27 (the audit chain) in audit.py."""
import os
import sys
import time
import uuid

import base64
import json
import urllib.request

from plinth import Plinth, PlinthError, Webhook, WebhookVerificationError

import audit
import every_resource
import holds
import payments
import request_log
import restricted
import stream
import reversals
from every_resource import ok, refused

PLINTH_URL = os.environ["PLINTH_URL"]
PLINTH_PROXY_URL = os.environ["PLINTH_PROXY_URL"]
PLINTH_LIMITED_URL = os.environ["PLINTH_LIMITED_URL"]
PLINTH_RECEIVER_URL = os.environ["PLINTH_RECEIVER_URL"]


signup = Plinth.sign_up(PLINTH_URL)
key: str = signup.api_key.key  # a str: a sign-up is never a replay
assert key.startswith("sk_test_"), key
plinth = Plinth(api_key=key, base_url=PLINTH_URL)
ok("1 sign up")

created = []
account = plinth.accounts.create(type="business", country="US")
assert account.status == "active", account.status
assert account.available_balance.amount == 0
assert account.available_balance.currency == "USD"
assert account.id.startswith("acct_")
assert account.kyb is None
assert (plinth.last_request_id or "").startswith("req_"), plinth.last_request_id
first_request_id = plinth.last_request_id
created.append(account)
ok("2 create an account")

with_kyb = plinth.accounts.create(type="business", country="US", kyb={"ein": "12-3456789", "legal_name": "Acme Corp"})
assert with_kyb.kyb is not None and with_kyb.kyb.ein_last4 == "6789"
created.append(with_kyb)
ok("3 create an account with kyb")

assert plinth.accounts.retrieve(created[0].id).id == created[0].id
ok("4 retrieve")

credit = plinth.sandbox.deposit(created[0].id, amount=10000)
assert credit.id.startswith("txn_"), credit.id
assert credit.amount == 10000 and credit.balance_after == 10000, credit
ok("4a deposit (sandbox)")

# No key given: the client makes one, reused by its retries, so the money moves once.
transfer = plinth.transfers.create(from_account_id=created[0].id, to_account_id=created[1].id, amount=2500, currency="USD")
assert transfer.id.startswith("tr_"), transfer.id
assert transfer.status == "posted" and transfer.amount == 2500, transfer
ok("4b transfer")

moves = [(t.amount, t.balance_after) for t in plinth.transactions.list(created[0].id, limit=1)]
assert moves == [(-2500, 7500), (10000, 10000)], moves
ok("4c iterate the transactions")

error = refused(lambda: plinth.transfers.create(from_account_id=created[0].id, to_account_id=created[1].id, amount=999999, currency="USD"), 409, "insufficient_funds")
assert error.param == "from_account_id", error.param
ok("4d insufficient funds: 409 with param")

idempotency_key = f"conformance-{uuid.uuid4()}"
first = plinth.accounts.create(type="business", country="US", idempotency_key=idempotency_key)
assert not plinth.last_replayed
again = plinth.accounts.create(type="business", country="US", idempotency_key=idempotency_key)
assert again.id == first.id
assert plinth.last_replayed
created.append(first)
ok("5 replay with the same Idempotency-Key")

refused(lambda: plinth.accounts.create(type="business", country="CA", idempotency_key=idempotency_key), 422, "idempotency_key_reused")
ok("6 the same key with another body: 422")

stranger = Plinth(api_key="sk_test_" + "A" * 38, base_url=PLINTH_URL)
refused(lambda: stranger.accounts.list_page(), 401, "api_key_invalid")
ok("7 a bad key: 401")

error = refused(lambda: plinth.request("POST", "/v1/fintech/accounts", body={"type": "business", "country": "US", "colour": "red"}), 400, "parameter_unknown")
assert error.param == "colour", error.param
assert len(error.errors) > 0
ok("8 an unknown field: 400 with param")

ids = [a.id for a in plinth.accounts.list(limit=1)]
assert ids == [a.id for a in reversed(created)], ids
ok("9 iterate the list with limit=1")

limited = Plinth(api_key=Plinth.sign_up(PLINTH_LIMITED_URL).api_key.key, base_url=PLINTH_LIMITED_URL)
for _ in range(6):
    limited.accounts.list_page()
assert limited.retries >= 1, limited.retries
ok(f"10 429s are retried ({limited.retries} retries)")

future = Plinth(api_key=key, base_url=PLINTH_PROXY_URL)
seen = future.accounts.retrieve(created[0].id)
assert seen.id == created[0].id
assert seen.status == "dormant", seen.status
assert "future_field" not in seen.to_dict(), "the decoded model keeps only the fields it knows"
assert len(future.accounts.list_page(limit=2).data) == 2
refused(lambda: future.accounts.retrieve("acct_" + "0" * 26), 404, "future_error_code")
ok("11 a future server: unknown field, enum value and error code")

endpoint = plinth.webhook_endpoints.create(url=PLINTH_RECEIVER_URL + "/hook", enabled_events=["*"])
secret: str = endpoint.secret
assert secret.startswith("whsec_"), secret
event = plinth.webhook_endpoints.test(endpoint.id)
assert event.type == "webhook_endpoint.test", event.type
delivery = None
deadline = time.monotonic() + 10
while delivery is None and time.monotonic() < deadline:
    with urllib.request.urlopen(f"{PLINTH_RECEIVER_URL}/deliveries?event={event.id}") as answer:
        found = json.load(answer)
    if found:
        delivery = found[0]
    else:
        time.sleep(0.1)
assert delivery is not None, f"no delivery of {event.id} within 10 s"
verified = Webhook.verify(secret, delivery["headers"], delivery["body"])
assert verified.id == event.id, verified.id
assert verified.type == "webhook_endpoint.test", verified.type
body = delivery["body"].encode()
i = body.index(event.id.encode()) + 4  # a character of the id
changed = body[:i] + (b"1" if body[i:i + 1] == b"0" else b"0") + body[i + 1:]
for wrong_secret, wrong_body in ((secret, changed), ("whsec_" + base64.b64encode(bytes([7]) * 32).decode(), body)):
    try:
        Webhook.verify(wrong_secret, delivery["headers"], wrong_body)
    except WebhookVerificationError as error:
        assert error.reason == "signature_mismatch", error.reason
    else:
        raise AssertionError("a changed body or another secret verified")
ok("12 a webhook delivery verifies with its secret, not with a changed body or another secret")

every_resource.run(plinth, first=created[0], second=created[1], transfer_id=transfer.id, endpoint=endpoint, test_event_id=event.id)
holds.run(plinth, first=created[0], second=created[1])
request_log.run(plinth, first_request_id=first_request_id)
reversals.run(plinth)
restricted.run(plinth, PLINTH_URL)
stream.run(plinth, key, PLINTH_PROXY_URL)
payments.run(plinth)
audit.run(plinth)

print(f"conformance passed on Python {sys.version.split()[0]}")
