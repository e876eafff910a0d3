# frozen_string_literal: true

# The README's Ruby examples, run against PLINTH_URL by conformance.sh so that an example that no longer works
# fails the client's test. Between the markers: written by scripts/clients/readme.ts from README.md (edit the
# README, then run `node scripts/clients/readme.ts ruby`), each example a proc so that it sees the locals above
# them: what the examples use but do not define (a client, two funded accounts, a transfer, a webhook endpoint, a
# signed delivery in a Rack-like request). The end runs every example in order.
$LOAD_PATH.unshift(File.expand_path("lib", __dir__))
require "plinth"
require "base64"
require "json"
require "openssl"
require "stringio"

plinth = Plinth::Client.new(api_key: Plinth::Client.sign_up(ENV.fetch("PLINTH_URL")).api_key.key,
                            base_url: ENV.fetch("PLINTH_URL"))
a = account_id = plinth.accounts.create(type: "business", country: "US").id
b = plinth.accounts.create(type: "business", country: "US").id
plinth.sandbox.deposit(a, amount: 20_000)
transfer = plinth.transfers.create(from_account_id: a, to_account_id: b, amount: 3000, currency: "USD")
endpoint_id = plinth.webhook_endpoints.create(url: "http://127.0.0.1:9/hook", enabled_events: ["*"]).id
# A delivery of a real event, signed as the server signs one (docs/api.md#webhooks).
ENV["PLINTH_WEBHOOK_SECRET"] = "whsec_#{Base64.strict_encode64('readme-examples-secret-32-bytes!')}"
event_id = plinth.events.list_page(limit: 1).data[0].id
raw_body = JSON.generate(plinth.request(:get, "/v1/events/#{event_id}"))
timestamp = Time.now.to_i.to_s
mac = OpenSSL::HMAC.digest("SHA256", "readme-examples-secret-32-bytes!", "#{event_id}.#{timestamp}.#{raw_body}")
request = Struct.new(:env, :body).new(
  { "HTTP_WEBHOOK_ID" => event_id, "HTTP_WEBHOOK_TIMESTAMP" => timestamp,
    "HTTP_WEBHOOK_SIGNATURE" => "v1,#{Base64.strict_encode64(mac)}" },
  StringIO.new(raw_body)
)
EXAMPLES = []
sleep 1.1 # the balances example reads b as it was a second ago, which must not be before b was opened

# readme-examples:start
EXAMPLES << proc do
  begin
    plinth.transfers.create(from_account_id: a, to_account_id: b, amount: 999_999, currency: "USD")
  rescue Plinth::Error => e
    p [e.status, e.code, e.param, e.request_id]  # [409, "insufficient_funds", "from_account_id", "req_…"]
  end
end

EXAMPLES << proc do
  plinth.accounts.list(status: "frozen", limit: 100).each { |a| puts a.id }
  plinth.transfers.list(status: "pending", created: { gte: Time.now - 86_400 }).each { |t| puts t.id }
  plinth.accounts.list(metadata: { "customer" => "c-42" }).first
  plinth.requests.list(status: "409", method: "POST", created: { gte: Time.now - 3600 }).each { |r| puts r.id, r.route }
  page = plinth.accounts.list_page(limit: 10)
  page.data.map(&:id) if page.has_more
end

EXAMPLES << proc do
  hold = plinth.transfers.create(from_account_id: a, to_account_id: b, amount: 4000, currency: "USD",
                                 pending: true, expires_in_seconds: 3600, metadata: { "order" => "A-1" })
  hold.status                                         # "pending"; hold.expires_at set, hold.posted_amount nil
  plinth.accounts.retrieve(a).available_balance.amount # 4000 less than current_balance.amount
  captured = plinth.transfers.post(hold.id, amount: 2500)
  captured.posted_amount                              # 2500; the other 1500 is available to a again
  other = plinth.transfers.create(from_account_id: a, to_account_id: b, amount: 1000, currency: "USD", pending: true)
  plinth.transfers.void(other.id).status              # "voided": released, nothing moved
end

EXAMPLES << proc do
  transfer = plinth.transfers.create(from_account_id: a, to_account_id: b, amount: 3000, currency: "USD")
  reversal = plinth.transfers.reverse(transfer.id, amount: 1000, description: "refund")  # "trr_…"
  plinth.transfers.retrieve(transfer.id).amount_reversed                                 # 1000; .reversed false
  plinth.transfers.list_reversals(transfer.id).map(&:id)                                 # [reversal.id]
  plinth.transfers.retrieve_reversal(transfer.id, reversal.id).amount                    # 1000
end

EXAMPLES << proc do
  opened = plinth.accounts.retrieve(b).created_at # a moment the account existed at
  plinth.accounts.balances(b, at: opened).current_balance.amount
  month = plinth.accounts.statement(b, from: "2026-11-01T00:00Z", to: Time.now)
  month.closing_balance == month.opening_balance + month.credits.amount - month.debits.amount # true
end

EXAMPLES << proc do
  plinth.accounts.update(account_id, metadata: { "customer" => "c-42", "old_ref" => "" }) # sets customer, removes old_ref
  plinth.transfers.update(transfer.id, clear_metadata: true)                            # removes every key
  plinth.webhook_endpoints.update(endpoint_id, description: "orders", metadata: { "team" => "payments" })
end

EXAMPLES << proc do
  created = plinth.api_keys.create(name: "CI deploys", idempotency_key: "ci-key-1")
  created.key       # "sk_test_…" (a String)
  again = plinth.api_keys.create(name: "CI deploys", idempotency_key: "ci-key-1")
  again.replayed?   # true; again.key raises Plinth::SecretUnavailableError; again.id is the same key's id
end

EXAMPLES << proc do
  made = plinth.api_keys.create(name: "balances dashboard", permissions: { accounts: "read", transactions: "read" })
  made.key                        # "rk_test_…", shown this once
  made.permissions.transfers      # "none" (every group is listed; made.permissions.to_hash for all of them)
  reader = Plinth::Client.new(api_key: made.key, base_url: ENV["PLINTH_URL"])
  reader.accounts.balances(account_id).current_balance.amount   # reading is allowed
  begin
    reader.transfers.create(from_account_id: a, to_account_id: b, amount: 100, currency: "USD")
  rescue Plinth::Error => e
    p [e.status, e.code]          # [403, "permission_denied"]: nothing moved; e.detail names what the route needs
  end
end

EXAMPLES << proc do
  # In a Rack app: the three webhook-* headers, and the body as received.
  headers = request.env.select { |k, _| k.start_with?("HTTP_WEBHOOK_") }.transform_keys { |k| k.delete_prefix("HTTP_").tr("_", "-") }
  event = Plinth::Webhook.verify(ENV["PLINTH_WEBHOOK_SECRET"], headers, request.body.read)
  puts event.type, event.id
end

EXAMPLES << proc do
  # From the oldest account still kept, then live; break ends it and closes the connection.
  plinth.events.stream(type: "fintech.account.created", after: 0) do |event|
    puts "#{event.sequence} #{event.type} #{event.data.object["id"]}"
    break if event.data.object["id"] == account_id # the account we waited for
  end
end

EXAMPLES << proc do
  listener = Thread.new do
    plinth.events.stream(type: "fintech.transfer.created") { |event| puts "transfer #{event.data.object["id"]}" }
  end
  # … the program goes on; when it no longer wants the events:
  listener.kill
end

EXAMPLES << proc do
  checkpoint = plinth.audit.retrieve_checkpoint
  after = 0
  while after < checkpoint.size
    plinth.audit.list_chain(after: after, limit: 1000).data.each do |link|
      after = link.sequence
      puts link.hash_hex == checkpoint.hash_hex if after == checkpoint.size # true: the chain ends there
    end
  end
end
# readme-examples:end

EXAMPLES.each_with_index do |example, i|
  example.call
  puts "ok example #{i + 1}"
end
puts "the README's #{EXAMPLES.size} examples ran"
