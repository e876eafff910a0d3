# frozen_string_literal: true

# The clients conformance scenario (clients-contract), through the Ruby client's public API.
$LOAD_PATH.unshift(File.expand_path("lib", __dir__))
require "plinth"
require "securerandom"
require "net/http"

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

step("1 sign up") do
  key = Plinth::Client.signup(base_url: URL).api_key.key
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
end

step("4c iterate the transactions") do
  moves = plinth.accounts.transactions(created[0], page_size: 1).map { |t| [t.amount, t.balance_after] }
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
  seen = plinth.accounts.list(page_size: 1).map(&:id)
  check(seen.uniq.size == seen.size, "duplicates #{seen}")
  check(seen == created.reverse, "listed #{seen} expected #{created.reverse}")
end

step("10 429 retried honouring Retry-After") do
  limited_key = Plinth::Client.signup(base_url: LIMITED_URL).api_key.key
  limited = Plinth::Client.new(api_key: limited_key, base_url: LIMITED_URL)
  6.times { limited.accounts.list_page(limit: 1) }
  check(limited.retry_count >= 1, "no retry happened")
end

step("11 tolerant decoding through the rewriting proxy") do
  proxied = Plinth::Client.new(api_key: key, base_url: PROXY_URL)
  a = proxied.accounts.retrieve(created[0])
  check(a.id == created[0], "id #{a.id}")
  check(a.status == "dormant", "status #{a.status}")
  n = proxied.accounts.list(page_size: 2).count
  check(n == created.size, "listed #{n}")
  e = expect_error { proxied.accounts.retrieve("acct_#{"0" * 26}") }
  check(e.status == 404, "status #{e.status}")
  check(e.code == "future_error_code", "code #{e.code}")
end

step("12 a webhook delivery verifies with its secret, not with a changed body or another secret") do
  endpoint = plinth.request(:post, "/v1/webhook_endpoints", body: { url: "#{RECEIVER_URL}/hook", enabled_events: ["*"] })
  secret = endpoint[:secret]
  check(secret.to_s.start_with?("whsec_"), "secret #{secret}")
  event = plinth.request(:post, "/v1/webhook_endpoints/#{endpoint[:id]}/test")
  check(event[:type] == "webhook_endpoint.test", "type #{event[:type]}")
  delivery = nil
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
  while delivery.nil? && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    found = JSON.parse(Net::HTTP.get(URI("#{RECEIVER_URL}/deliveries?event=#{event[:id]}")))
    found.empty? ? sleep(0.1) : delivery = found.first
  end
  check(!delivery.nil?, "no delivery of #{event[:id]} within 10 s")
  headers = delivery["headers"]
  body = delivery["body"]
  verified = Plinth::Webhook.verify(secret, headers, body)
  check(verified.id == event[:id], "verified id #{verified.id}")
  check(verified.type == "webhook_endpoint.test", "verified type #{verified.type}")
  changed = body.b
  i = changed.index(event[:id]) + 4 # a character of the id
  changed.setbyte(i, changed.getbyte(i) == "0".ord ? "1".ord : "0".ord)
  other = "whsec_#{Base64.strict_encode64("\x07" * 32)}"
  [[secret, changed], [other, body]].each do |wrong_secret, wrong_body|
    Plinth::Webhook.verify(wrong_secret, headers, wrong_body)
    raise CheckFailed, "a changed body or another secret verified"
  rescue Plinth::WebhookVerificationError => e
    check(e.reason == :signature_mismatch, "reason #{e.reason}")
  end
end

exit($failures.zero? ? 0 : 1)
