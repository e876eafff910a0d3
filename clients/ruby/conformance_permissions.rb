# frozen_string_literal: true

# Step 24 of the clients conformance scenario (clients/README.md), loaded by conformance.rb, whose check and
# expect_error it uses: a read-only key reads an account and its balances but cannot move money
# (docs/api.md, "Create a key"; a key may do only what its permissions allow, else 403 permission_denied).
def read_only_key(plinth, url, from, to)
  made = plinth.api_keys.create(name: "read-only", permissions: { accounts: "read", transactions: "read" })
  check(made.key.start_with?("rk_test_"), "key #{made.key[0, 8]}…")
  levels = made.permissions.to_hash.transform_keys(&:to_s)
  expected = { "accounts" => "read", "transfers" => "none", "transactions" => "read", "sandbox" => "none",
               "events" => "none", "webhook_endpoints" => "none", "api_keys" => "none", "requests" => "none",
               "payments" => "none" }
  check(levels == expected, "permissions #{levels}")
  check(plinth.api_keys.retrieve(made.id).permissions&.accounts == "read", "retrieved permissions")
  before = plinth.accounts.balances(from).current_balance.amount

  reader = Plinth::Client.new(api_key: made.key, base_url: url)
  check(reader.accounts.retrieve(from).id == from, "read-only key retrieving the account")
  check(reader.accounts.balances(from).current_balance.amount == before, "read-only key reading the balances")
  e = expect_error do
    reader.transfers.create(from_account_id: from, to_account_id: to, amount: 100, currency: "USD")
  end
  check([e.status, e.code] == [403, "permission_denied"], "transfer with a read-only key: #{[e.status, e.code]}")
  after = plinth.accounts.balances(from).current_balance.amount
  check(after == before, "balance #{before} became #{after} after a refused transfer")
end
