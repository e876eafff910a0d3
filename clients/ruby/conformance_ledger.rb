# frozen_string_literal: true

# Step 23 of the clients conformance scenario (clients/README.md), loaded by conformance.rb, whose check it uses:
# reverse part of a transfer, read the balances at a moment before the reversal and now, a statement around both,
# and name an account (docs/api.md#correcting-a-transfer, #balances-over-time-and-statements).

# A Time from the API's minute form (2026-11-24T09:30Z).
def from_api_minute(text)
  Time.utc(*text.scan(/\d+/).map(&:to_i))
end

def reversal_balances_statement_nickname(plinth)
  payroll = plinth.accounts.create(type: "business", country: "US", nickname: "Payroll")
  check(payroll.nickname == "Payroll", "nickname at create #{payroll.nickname.inspect}")
  a = payroll.id
  b = plinth.accounts.create(type: "business", country: "US").id
  plinth.sandbox.deposit(a, amount: 10_000)
  transfer = plinth.transfers.create(from_account_id: a, to_account_id: b, amount: 3000, currency: "USD")
  check([transfer.status, transfer.amount_reversed, transfer.reversed] == ["posted", 0, false],
        "transfer #{[transfer.status, transfer.amount_reversed, transfer.reversed]}")
  # An instant between the transfer and the reversal, to the millisecond (the API takes RFC 3339 with seconds);
  # the pauses keep each movement's millisecond on its own side of it.
  sleep(0.01)
  before = Time.now
  sleep(0.01)
  reversal = plinth.transfers.reverse(transfer.id, amount: 1000, description: "refund", metadata: { "case" => "R-1" })
  check(reversal.id.start_with?("trr_") && reversal.transfer_id == transfer.id, "reversal #{reversal.id}")
  check([reversal.amount, reversal.currency, reversal.metadata] == [1000, "USD", { "case" => "R-1" }],
        "reversal #{[reversal.amount, reversal.currency, reversal.metadata]}")
  after = plinth.transfers.retrieve(transfer.id)
  check([after.amount_reversed, after.reversed] == [1000, false], "after: #{[after.amount_reversed, after.reversed]}")
  listed = plinth.transfers.list_reversals(transfer.id, limit: 1).map(&:id)
  check(listed == [reversal.id], "reversals listed #{listed}")
  check(plinth.transfers.retrieve_reversal(transfer.id, reversal.id).amount == 1000, "reversal retrieved")
  e = expect_error { plinth.transfers.reverse(transfer.id, amount: 2001) }
  check([e.status, e.code, e.param] == [400, "parameter_invalid", "amount"],
        "reverse 2001 of what remains, 2000: #{[e.status, e.code, e.param]}")

  past = plinth.accounts.balances(b, at: before)
  check([past.current_balance.amount, past.available_balance.amount] == [3000, 3000],
        "balances before the reversal #{[past.current_balance.amount, past.available_balance.amount]}")
  now = plinth.accounts.balances(b)
  check([now.current_balance.amount, now.account_id] == [2000, b], "balances now #{now.current_balance.amount}")
  sleep(0.01)
  from = from_api_minute(transfer.created_at) - 60
  statement = plinth.accounts.statement(b, from: from.strftime("%Y-%m-%dT%H:%MZ"), to: Time.now)
  totals = [statement.opening_balance, statement.credits.count, statement.credits.amount, statement.debits.count,
            statement.debits.amount, statement.closing_balance]
  check(totals == [0, 1, 3000, 1, 1000, 2000], "statement (opening, credits, debits, closing) #{totals}")
  check(statement.closing_balance ==
        statement.opening_balance + statement.credits.amount - statement.debits.amount, "statement does not add up")
  check(statement.closing_balance == now.current_balance.amount, "closing #{statement.closing_balance}")
  check(plinth.accounts.statement(b, from: from, to: before).closing_balance == 3000, "closing before the reversal")

  named = plinth.accounts.update(b, nickname: "Operations")
  check(named.nickname == "Operations" && plinth.accounts.retrieve(b).nickname == "Operations", "nickname set")
  check(plinth.accounts.update(b, nickname: "").nickname.nil?, "nickname not cleared by \"\"")
end
