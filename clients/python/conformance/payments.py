"""Step 26 of the conformance scenario (clients/README.md): money in and out over the rails on the sandbox clock. An
inbound ACH credit of 100 to a new account number, an ACH payment of 60 out (held at once: available -60, current
unchanged), the clock advanced to the next business day after settlement (settled), a rule that returns it R01 two
days after settlement, the clock advanced again (returned, with a reversal of its transfer), and a statement that
adds up. It runs last: it moves the organisation's clock days ahead."""
import re
from datetime import datetime, timedelta

from every_resource import ok


def after_next_settlement(moment: datetime) -> str:
    """15:00 UTC on the first weekday after ``moment``: after that day's 09:00 New York settlement, before its
    cut-off, so that every run sees the same outcome."""
    day = moment + timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return f"{day.date().isoformat()}T15:00Z"


def run(plinth):
    account = plinth.accounts.create(type="business", country="US")
    number = plinth.account_numbers.create(account_id=account.id, name="Main")
    assert re.fullmatch(r"[0-9]{12}", number.account_number), number
    assert plinth.account_numbers.retrieve(number.id).account_number is None

    def balances():
        a = plinth.accounts.retrieve(account.id)
        return (a.current_balance.amount, a.available_balance.amount)

    start = plinth.sandbox.retrieve_clock().now

    inbound = plinth.sandbox.inbound_payment(
        account_number=number.account_number,
        amount=100,
        rail="ach",
        direction="credit",
        originator_name="Globex Corporation",
    )
    assert (inbound.status, inbound.direction, inbound.account_number_id) == ("settled", "inbound", number.id), inbound
    assert balances() == (100, 100)

    # A weekday morning first, so that the cut-off and the settlement are the same in every run.
    plinth.sandbox.advance_clock(to=after_next_settlement(start))
    external = plinth.external_accounts.create(
        routing_number="021000021",
        account_number="000123456789",
        account_holder_name="Acme Supplies LLC",
        account_type="checking",
    )
    payment = plinth.payments.create(
        account_id=account.id, external_account_id=external.id, amount=60, currency="USD", rail="ach"
    )
    assert payment.status == "pending_submission", payment
    assert balances() == (100, 40), "held at once: available -60, current unchanged"

    settled_at = after_next_settlement(plinth.sandbox.retrieve_clock().now)
    clock = plinth.sandbox.advance_clock(to=settled_at)
    assert clock.now.strftime("%Y-%m-%dT%H:%MZ") == settled_at, clock
    assert plinth.payments.retrieve(payment.id).status == "settled"
    assert balances() == (40, 40)

    rule = plinth.sandbox.create_payment_rule(match={"amount": 60}, action={"return": "R01", "at": "P2D"})
    assert rule.id.startswith("prule_"), rule
    plinth.sandbox.advance_clock(to=(clock.now + timedelta(days=3)).isoformat())
    returned = plinth.payments.retrieve(payment.id)
    assert returned.status == "returned", returned
    assert returned.return_reason.code == "R01", returned
    reversals = list(plinth.transfers.list_reversals(payment.transfer_id))
    assert len(reversals) == 1 and reversals[0].description.startswith("R01"), reversals
    assert balances() == (100, 100)

    statement = plinth.accounts.statement(account.id, start, plinth.sandbox.retrieve_clock().now)
    credits, debits = statement.credits, statement.debits
    assert statement.closing_balance == statement.opening_balance + credits.amount - debits.amount, statement
    assert statement.closing_balance == 100, statement
    ok("26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule")
