# frozen_string_literal: true

# Step 26 of the clients conformance scenario (clients/README.md), loaded by conformance.rb, whose check it uses:
# money in and out over the rails on the sandbox clock. An inbound ACH credit of 100 to a new account number, an ACH
# payment of 60 out (held at once: available -60, current unchanged), the clock advanced to the next business day
# after settlement (settled), a rule that returns it R01 two days after settlement, the clock advanced again
# (returned, with a reversal of its transfer), and a statement that adds up. It runs last: it moves the
# organisation's clock days ahead.

require "time"

# 15:00 UTC on the first weekday after +now+: after that day's 09:00 New York settlement, before its cut-off.
def after_next_settlement(now)
  day = Time.parse(now).utc + 86_400
  day += 86_400 while day.saturday? || day.sunday?
  day.strftime("%Y-%m-%dT15:00Z")
end

def payments_on_the_clock(plinth)
  account = plinth.accounts.create(type: "business", country: "US").id
  number = plinth.account_numbers.create(account_id: account, name: "Main")
  check(number.account_number.match?(/\A[0-9]{12}\z/) && !number.replayed?, "number #{number.account_number_last4}")
  check(plinth.account_numbers.retrieve(number.id).account_number.nil?, "the number shown again")
  balances = lambda do
    a = plinth.accounts.retrieve(account)
    [a.current_balance.amount, a.available_balance.amount]
  end
  start = plinth.sandbox.retrieve_clock.now.to_s

  inbound = plinth.sandbox.inbound_payment(account_number: number.account_number, amount: 100, rail: "ach",
                                           direction: "credit", originator_name: "Globex Corporation")
  check([inbound.status, inbound.direction, inbound.account_number_id] == ["settled", "inbound", number.id],
        "inbound #{[inbound.status, inbound.direction]}")
  check(balances.call == [100, 100], "after the inbound credit #{balances.call}")

  # A weekday morning first, so that the cut-off and the settlement are the same in every run.
  plinth.sandbox.advance_clock(to: after_next_settlement(start))
  external = plinth.external_accounts.create(routing_number: "021000021", account_number: "000123456789",
                                             account_holder_name: "Acme Supplies LLC", account_type: "checking")
  payment = plinth.payments.create(account_id: account, external_account_id: external.id, amount: 60,
                                   currency: "USD", rail: "ach")
  check(payment.status == "pending_submission", "new payment #{payment.status}")
  check(balances.call == [100, 40], "held at once (available -60, current unchanged) #{balances.call}")

  settled_at = after_next_settlement(plinth.sandbox.retrieve_clock.now.to_s)
  now = plinth.sandbox.advance_clock(to: settled_at).now.to_s
  check(now.start_with?(settled_at.delete_suffix("Z")), "clock #{now}, asked #{settled_at}")
  check(plinth.payments.retrieve(payment.id).status == "settled", "not settled")
  check(balances.call == [40, 40], "after settlement #{balances.call}")

  rule = plinth.sandbox.create_payment_rule(match: { amount: 60 }, action: { return: "R01", at: "P2D" })
  check(rule.id.start_with?("prule_"), "rule #{rule.id}")
  plinth.sandbox.advance_clock(to: (Time.parse(now).utc + (3 * 86_400)).iso8601(3))
  returned = plinth.payments.retrieve(payment.id)
  check(returned.status == "returned" && returned.return_reason&.code == "R01", "returned #{returned.status}")
  reversals = plinth.transfers.list_reversals(returned.transfer_id).to_a
  check(reversals.size == 1 && reversals[0].description.to_s.start_with?("R01"), "reversals #{reversals.size}")
  check(balances.call == [100, 100], "after the return #{balances.call}")

  statement = plinth.accounts.statement(account, from: start, to: plinth.sandbox.retrieve_clock.now.to_s)
  check(statement.closing_balance == statement.opening_balance + statement.credits.amount - statement.debits.amount &&
        statement.closing_balance == 100, "statement #{statement.closing_balance}")
end
