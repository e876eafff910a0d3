# frozen_string_literal: true

# The clients conformance scenario (clients-contract), through the Ruby client's public API.
$LOAD_PATH.unshift(File.expand_path("lib", __dir__))
require "plinth"
require "securerandom"
require "net/http"
require_relative "conformance_audit"
require_relative "conformance_ledger"
require_relative "conformance_payments"
require_relative "conformance_permissions"
require_relative "conformance_stream"

URL = ENV.fetch("PLINTH_URL")
PROXY_URL = ENV.fetch("PLINTH_PROXY_URL")
LIMITED_URL = ENV.fetch("PLINTH_LIMITED_URL")
RECEIVER_URL = ENV.fetch("PLINTH_RECEIVER_URL")

class CheckFailed < StandardError; end

def check(ok, what)
  raise CheckFailed, what unless ok
end

def expect_error
  yield
  raise CheckFailed, "expected a Plinth::Error"
rescue Plinth::Error => e
  e
end

$failures = 0

def step(name)
  yield
  puts "ok   #{name}"
rescue StandardError => e
  $failures += 1
  puts "FAIL #{name}: #{e.class}: #{e.message}"
end

key = nil
plinth = nil
created = []
transfer_id = nil
endpoint = nil
secret = nil
test_event = nil
first_request_id = nil

step("1 sign up") do
  key = Plinth::Client.sign_up(URL).api_key.key
  check(key.start_with?("sk_test_"), "key #{key}")
  plinth = Plinth::Client.new(api_key: key, base_url: URL)
end
exit 1 unless plinth

step("2 create account, Request-Id exposed") do
  a = plinth.accounts.create(type: "business", country: "US")
  check(a.status == "active", "status #{a.status}")
  check(a.available_balance.amount == 0, "amount #{a.available_balance.amount}")
  check(a.available_balance.currency == "USD", "currency #{a.available_balance.currency}")
  check(a.id.start_with?("acct_"), "id #{a.id}")
  check(plinth.last_request_id.to_s.start_with?("req_"), "request id #{plinth.last_request_id.inspect}")
  first_request_id = plinth.last_request_id
  created << a.id
end

step("3 create with kyb") do
  a = plinth.accounts.create(type: "business", country: "US", kyb: { ein: "12-3456789", legal_name: "Acme Corp" })
  check(a.kyb&.ein_last4 == "6789", "kyb #{a.kyb.inspect}")
  created << a.id
end

step("4 retrieve") do
  a = plinth.accounts.retrieve(created[0])
  check(a.id == created[0], "id #{a.id}")
end

step("4a deposit (sandbox)") do
  t = plinth.sandbox.deposit(created[0], amount: 10_000)
  check(t.id.start_with?("txn_"), "id #{t.id}")
  check(t.amount == 10_000 && t.balance_after == 10_000, "amount #{t.amount} balance_after #{t.balance_after}")
end

step("4b transfer (the client's own Idempotency-Key)") do
  t = plinth.transfers.create(from_account_id: created[0], to_account_id: created[1], amount: 2500, currency: "USD")
  check(t.id.start_with?("tr_"), "id #{t.id}")
  check(t.status == "posted" && t.amount == 2500, "status #{t.status} amount #{t.amount}")
  transfer_id = t.id
end

step("4c iterate the transactions") do
  moves = plinth.transactions.list(created[0], limit: 1).map { |t| [t.amount, t.balance_after] }
  check(moves == [[-2500, 7500], [10_000, 10_000]], "transactions [amount, balance_after] #{moves}")
end

step("4d insufficient funds -> 409 with param") do
  e = expect_error do
    plinth.transfers.create(from_account_id: created[0], to_account_id: created[1], amount: 999_999, currency: "USD")
  end
  check(e.status == 409, "status #{e.status}")
  check(e.code == "insufficient_funds", "code #{e.code}")
  check(e.param == "from_account_id", "param #{e.param.inspect}")
  check(e.request_id.to_s.start_with?("req_"), "request_id #{e.request_id.inspect}")
end

idem_key = "conformance-#{SecureRandom.uuid}"
step("5 idempotent replay") do
  a = plinth.accounts.create({ type: "business", country: "US" }, idempotency_key: idem_key)
  b = plinth.accounts.create({ type: "business", country: "US" }, idempotency_key: idem_key)
  check(a.id == b.id, "#{a.id} != #{b.id}")
  created << a.id
end

step("6 key reused with another body -> 422") do
  e = expect_error { plinth.accounts.create({ type: "business", country: "CA" }, idempotency_key: idem_key) }
  check(e.status == 422, "status #{e.status}")
  check(e.code == "idempotency_key_reused", "code #{e.code}")
  check(e.request_id.to_s.start_with?("req_"), "request_id #{e.request_id.inspect}")
end

step("7 bad key -> 401") do
  bad = Plinth::Client.new(api_key: "sk_test_#{"A" * 38}", base_url: URL)
  e = expect_error { bad.accounts.retrieve(created[0]) }
  check(e.status == 401, "status #{e.status}")
  check(e.code == "api_key_invalid", "code #{e.code}")
end

step("8 unknown field -> 400 parameter_unknown") do
  e = expect_error do
    plinth.request(:post, "/v1/fintech/accounts", body: { type: "business", country: "US", colour: "red" })
  end
  check(e.status == 400, "status #{e.status}")
  check(e.code == "parameter_unknown", "code #{e.code}")
  check(e.param == "colour", "param #{e.param.inspect}")
  check(!e.errors.empty?, "errors empty")
end

step("9 auto-pagination") do
  seen = plinth.accounts.list(limit: 1).map(&:id)
  check(seen.uniq.size == seen.size, "duplicates #{seen}")
  check(seen == created.reverse, "listed #{seen} expected #{created.reverse}")
end

step("10 429 retried honouring Retry-After") do
  limited_key = Plinth::Client.sign_up(LIMITED_URL).api_key.key
  limited = Plinth::Client.new(api_key: limited_key, base_url: LIMITED_URL)
  6.times { limited.accounts.list_page(limit: 1) }
  check(limited.retry_count >= 1, "no retry happened")
end

step("11 tolerant decoding through the rewriting proxy") do
  proxied = Plinth::Client.new(api_key: key, base_url: PROXY_URL)
  a = proxied.accounts.retrieve(created[0])
  check(a.id == created[0], "id #{a.id}")
  check(a.status == "dormant", "status #{a.status}")
  n = proxied.accounts.list(limit: 2).count
  check(n == created.size, "listed #{n}")
  e = expect_error { proxied.accounts.retrieve("acct_#{"0" * 26}") }
  check(e.status == 404, "status #{e.status}")
  check(e.code == "future_error_code", "code #{e.code}")
end

step("12 a webhook delivery verifies with its secret, not with a changed body or another secret") do
  endpoint = plinth.webhook_endpoints.create(url: "#{RECEIVER_URL}/hook", enabled_events: ["*"])
  secret = endpoint.secret
  check(secret.is_a?(String) && secret.start_with?("whsec_"), "secret #{secret.inspect}")
  test_event = plinth.webhook_endpoints.test(endpoint.id)
  check(test_event.type == "webhook_endpoint.test", "type #{test_event.type}")
  delivery = nil
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
  while delivery.nil? && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    found = JSON.parse(Net::HTTP.get(URI("#{RECEIVER_URL}/deliveries?event=#{test_event.id}")))
    found.empty? ? sleep(0.1) : delivery = found.first
  end
  check(!delivery.nil?, "no delivery of #{test_event.id} within 10 s")
  headers = delivery["headers"]
  body = delivery["body"]
  verified = Plinth::Webhook.verify(secret, headers, body)
  check(verified.id == test_event.id, "verified id #{verified.id}")
  check(verified.type == "webhook_endpoint.test", "verified type #{verified.type}")
  changed = body.b
  i = changed.index(test_event.id) + 4 # a character of the id
  changed.setbyte(i, changed.getbyte(i) == "0".ord ? "1".ord : "0".ord)
  other = "whsec_#{Base64.strict_encode64("\x07" * 32)}"
  [[secret, changed], [other, body]].each do |wrong_secret, wrong_body|
    Plinth::Webhook.verify(wrong_secret, headers, wrong_body)
    raise CheckFailed, "a changed body or another secret verified"
  rescue Plinth::WebhookVerificationError => e
    check(e.reason == :signature_mismatch, "reason #{e.reason}")
  end
end

step("13 freeze, list frozen, a transfer to it refused, unfreeze") do
  frozen = plinth.accounts.freeze(created[1], reason: "compliance_review", note: "conformance")
  check(frozen.status == "frozen", "status #{frozen.status}")
  check(frozen.status_details&.reason == "compliance_review", "status_details #{frozen.status_details.inspect}")
  listed = plinth.accounts.list(status: "frozen").map(&:id)
  check(listed == [created[1]], "frozen accounts #{listed}")
  e = expect_error do
    plinth.transfers.create(from_account_id: created[0], to_account_id: created[1], amount: 1, currency: "USD")
  end
  check([e.status, e.code, e.param] == [409, "account_frozen", "to_account_id"], "error #{[e.status, e.code, e.param]}")
  thawed = plinth.accounts.unfreeze(created[1])
  check(thawed.status == "active" && thawed.status_details.nil?, "#{thawed.status} #{thawed.status_details.inspect}")
end

step("14 sandbox withdrawal") do
  t = plinth.sandbox.withdraw(created[0], amount: 500)
  check(t.amount == -500 && t.balance_after == 7000, "amount #{t.amount} balance_after #{t.balance_after}")
end

step("15 list transfers by account, retrieve one") do
  listed = plinth.transfers.list(account_id: created[1]).map(&:id)
  check(listed == [transfer_id], "transfers #{listed} expected [#{transfer_id}]")
  check(plinth.transfers.retrieve(transfer_id).amount == 2500, "retrieved transfer")
end

step("16 close an account; a deposit to it refused") do
  third = plinth.accounts.create(type: "business", country: "US")
  closed = plinth.accounts.close(third.id, reason: "customer_request")
  check(closed.status == "closed" && !closed.closed_at.nil?, "status #{closed.status} closed_at #{closed.closed_at.inspect}")
  e = expect_error { plinth.sandbox.deposit(third.id, amount: 100) }
  check([e.status, e.code] == [409, "account_closed"], "error #{[e.status, e.code]}")
end

step("17 list events of one type across pages, retrieve one") do
  events = plinth.events.list(type: "fintech.account.created", limit: 2).to_a
  check(events.size >= 3, "#{events.size} events")
  check(events.all? { |ev| ev.type == "fintech.account.created" }, "types #{events.map(&:type).uniq}")
  sequences = events.map(&:sequence)
  check(sequences.each_cons(2).all? { |a, b| a > b }, "sequences #{sequences}")
  one = plinth.events.retrieve(events.first.id)
  check([one.id, one.sequence] == [events.first.id, events.first.sequence], "retrieved #{one.id} #{one.sequence}")
end

step("18 webhook endpoint: update, deliveries, retry, rotate, list, delete") do
  updated = plinth.webhook_endpoints.update(endpoint.id, description: "updated")
  check(updated.description == "updated", "description #{updated.description.inspect}")
  delivery = nil
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10 # the receiver answered; the server records it
  loop do
    delivery = plinth.webhook_endpoints.list_deliveries(endpoint.id).find { |d| d.event_id == test_event.id }
    break if delivery&.status == "succeeded" || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

    sleep(0.1)
  end
  check(delivery&.status == "succeeded", "endpoint delivery #{delivery&.status.inspect}")
  by_event = plinth.events.list_deliveries(test_event.id).map(&:id)
  check(by_event.include?(delivery.id), "event deliveries #{by_event}")
  retried = plinth.webhook_deliveries.retry(delivery.id)
  check(retried.id == delivery.id, "retried #{retried.id}")
  rotated = plinth.webhook_endpoints.rotate_secret(endpoint.id)
  check(rotated.secret.is_a?(String) && rotated.secret.start_with?("whsec_") && rotated.secret != secret, "rotated secret")
  check(plinth.webhook_endpoints.list.map(&:id).include?(endpoint.id), "endpoint not listed")
  check(plinth.webhook_endpoints.delete(endpoint.id).deleted == true, "not deleted")
  e = expect_error { plinth.webhook_endpoints.retrieve(endpoint.id) }
  check([e.status, e.code] == [404, "resource_not_found"], "error #{[e.status, e.code]}")
end

step("19 API keys: create, list, retrieve, revoke") do
  created_key = plinth.api_keys.create(name: "conformance")
  check(created_key.key.is_a?(String) && created_key.key.start_with?("sk_test_"), "key #{created_key.key.inspect}")
  check(created_key.name == "conformance", "name #{created_key.name.inspect}")
  check(plinth.api_keys.list.map(&:id).include?(created_key.id), "key not listed")
  check(plinth.api_keys.retrieve(created_key.id).id == created_key.id, "retrieved key")
  check(!plinth.api_keys.revoke(created_key.id).revoked_at.nil?, "revoked_at not set")
end

pending_ids = []
step("20 pending transfers: hold, post part, void, expire") do
  first, second = created[0], created[1]
  plinth.sandbox.deposit(first, amount: 10_000)
  before = plinth.accounts.retrieve(first)
  held = plinth.transfers.create(from_account_id: first, to_account_id: second, amount: 4000, currency: "USD",
                                 pending: true, expires_in_seconds: 3600, metadata: { "order" => "A-1" })
  check(held.status == "pending" && held.pending == true, "status #{held.status} pending #{held.pending.inspect}")
  check(!held.expires_at.nil? && held.posted_amount.nil?, "expires_at #{held.expires_at.inspect} posted_amount #{held.posted_amount.inspect}")
  check(held.metadata == { "order" => "A-1" }, "metadata #{held.metadata.inspect}")
  holding = plinth.accounts.retrieve(first)
  check(holding.current_balance.amount == before.current_balance.amount, "current #{holding.current_balance.amount}")
  check(holding.available_balance.amount == before.available_balance.amount - 4000, "available #{holding.available_balance.amount}")
  posted = plinth.transfers.post(held.id, amount: 2500)
  check(posted.status == "posted" && posted.posted_amount == 2500, "post: #{posted.status} #{posted.posted_amount.inspect}")
  settled = plinth.accounts.retrieve(first)
  check(settled.available_balance.amount == settled.current_balance.amount &&
        settled.current_balance.amount == before.current_balance.amount - 2500,
        "after post: available #{settled.available_balance.amount} current #{settled.current_balance.amount}")
  voided = plinth.transfers.create(from_account_id: first, to_account_id: second, amount: 1000, currency: "USD", pending: true)
  check(plinth.transfers.void(voided.id).status == "voided", "not voided")
  e = expect_error { plinth.transfers.post(voided.id) }
  check([e.status, e.code] == [409, "transfer_not_pending"], "post of a voided one: #{[e.status, e.code]}")
  expiring = plinth.transfers.create(from_account_id: first, to_account_id: second, amount: 500, currency: "USD", pending: true)
  check(plinth.sandbox.expire_transfer(expiring.id).status == "expired", "not expired")
  e = expect_error { plinth.transfers.post(expiring.id) }
  check([e.status, e.code] == [409, "transfer_expired"], "post of an expired one: #{[e.status, e.code]}")
  pending_ids.push(held.id, voided.id, expiring.id)
end

step("21 metadata and filters") do
  first = created[0]
  updated = plinth.accounts.update(first, metadata: { "customer" => "c-42" })
  check(updated.metadata == { "customer" => "c-42" }, "metadata #{updated.metadata.inspect}")
  listed = plinth.accounts.list(metadata: { "customer" => "c-42" }).map(&:id)
  check(listed == [first], "accounts with customer c-42: #{listed}")
  still_pending = plinth.transfers.list(status: "pending").map(&:id)
  check((still_pending & pending_ids).empty?, "pending transfers #{still_pending}")
  check(plinth.transfers.list(status: "voided").map(&:id) == [pending_ids[1]], "voided transfers")
  by_order = plinth.transfers.list(metadata: { "order" => "A-1" }).map(&:id)
  check(by_order == [pending_ids[0]], "transfers with order A-1: #{by_order}")
  cleared = plinth.transfers.update(pending_ids[0], metadata: { "order" => "" })
  check(cleared.metadata == {}, "metadata after removing order: #{cleared.metadata.inspect}")
  since = plinth.accounts.retrieve(first).created_at
  check(plinth.events.list(created: { gte: since }).first(1).size == 1, "no event created at or after #{since}")
  check(plinth.events.list(created: { lt: "2000-01-01T00:00Z" }).first(1).empty?, "events created before 2000")
end

step("22 the request log: list with filters, retrieve") do
  since = Time.now - 3600
  found = nil
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10 # the log is written in batches
  loop do
    found = plinth.requests.list(method: "POST", status: "200", created: { gte: since }, limit: 100)
                  .find { |r| r.id == first_request_id }
    break if found || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

    sleep(0.2)
  end
  check(!found.nil?, "the create of step 2 (#{first_request_id.inspect}) not in the request log within 10 s")
  check(found.route == "/v1/fintech/accounts", "route #{found.route.inspect}")
  entry = plinth.requests.retrieve(first_request_id)
  sent = JSON.parse(entry.body || "{}")
  got = [entry.id, entry.method, entry.status, entry.source, sent["type"], sent["country"]]
  check(got == [first_request_id, "POST", 200, "api", "business", "US"], "entry #{got}")
  page = plinth.requests.list_page(limit: 1, created: { gte: "2000-01-01T00:00Z" })
  check(page.data.size == 1 && page.has_more == true, "page of #{page.data.size}, has_more #{page.has_more.inspect}")
end

step("23 reverse part of a transfer, balances at a moment, a statement, a nickname") do
  reversal_balances_statement_nickname(plinth)
end

step("24 a read-only key reads an account and its balances, and cannot move money") do
  read_only_key(plinth, URL, created[0], created[1])
end

step("25 the event stream resumes across lost connections with no gap and no repeat") do
  event_stream(plinth, key, PROXY_URL)
end

step("26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule") do
  payments_on_the_clock(plinth)
end

step("27 audit: the chain paged with after matches the signed checkpoint and its key") do
  audit_chain(plinth)
end

exit($failures.zero? ? 0 : 1)
