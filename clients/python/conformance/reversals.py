"""Step 23 of the conformance scenario (clients/README.md): a posted transfer reversed in part, the receiver's balance
read at an instant between the transfer and the reversal and now, a statement around both that adds up, and a
nickname set, read back and cleared."""
import time
from datetime import datetime, timedelta, timezone

from every_resource import ok


def split_instant():
    """A past instant that splits time: every write answered before the call is at or before it, every write sent
    after the call returns is after it. Stored times have millisecond precision, so it is the next millisecond, and
    the call returns once the clock has passed it (the API refuses a time in the future)."""
    at = time.time_ns() // 1_000_000 + 1
    while time.time_ns() // 1_000_000 <= at:
        time.sleep(0.001)
    return datetime.fromtimestamp(at // 1000, timezone.utc) + timedelta(milliseconds=at % 1000)  # no float rounding


def run(plinth):
    payer = plinth.accounts.create(type="business", country="US", nickname="Operating")
    assert payer.nickname == "Operating", payer
    payee = plinth.accounts.create(type="business", country="US", metadata={"team": "ops"})
    assert payee.nickname is None, payee
    plinth.sandbox.deposit(payer.id, amount=5000)
    transfer = plinth.transfers.create(from_account_id=payer.id, to_account_id=payee.id, amount=3000, currency="USD")
    assert (transfer.amount_reversed, transfer.reversed) == (0, False), transfer
    before_reversal = split_instant()

    reversal = plinth.transfers.reverse(transfer.id, amount=1000, description="refund")
    assert reversal.id.startswith("trr_"), reversal
    assert (reversal.transfer_id, reversal.amount, reversal.currency) == (transfer.id, 1000, "USD"), reversal
    reversed_ = plinth.transfers.retrieve(transfer.id)
    assert (reversed_.amount_reversed, reversed_.reversed) == (1000, False), reversed_
    assert [r.id for r in plinth.transfers.list_reversals(transfer.id, limit=1)] == [reversal.id]
    assert plinth.transfers.retrieve_reversal(transfer.id, reversal.id).amount == 1000

    then = plinth.accounts.balances(payee.id, at=before_reversal)
    assert (then.current_balance.amount, then.available_balance.amount) == (3000, 3000), then
    now = plinth.accounts.balances(payee.id)
    assert (now.current_balance.amount, now.available_balance.amount) == (2000, 2000), now

    statement = plinth.accounts.statement(payee.id, transfer.created_at - timedelta(minutes=1), split_instant())
    credits, debits = statement.credits, statement.debits
    assert (credits.count, credits.amount, debits.count, debits.amount) == (1, 3000, 1, 1000), statement
    assert statement.closing_balance == statement.opening_balance + credits.amount - debits.amount, statement
    assert statement.closing_balance == now.current_balance.amount, statement

    named = plinth.accounts.update(payee.id, nickname="Payroll")
    assert plinth.accounts.retrieve(payee.id).nickname == "Payroll"
    assert named.metadata == {"team": "ops"}, named
    cleared = plinth.accounts.update(payee.id, nickname="")
    assert (cleared.nickname, cleared.metadata) == (None, {"team": "ops"}), cleared
    ok("23 a partial reversal, balances before and after it, a statement, nicknames")
