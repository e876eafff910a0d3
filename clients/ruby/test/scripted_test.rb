# frozen_string_literal: true

# What the live scenario cannot provoke, against a scripted server (a few lines of TCPServer): 503 then 409
# in-progress then success with one Idempotency-Key, a key per call and the caller's key winning, Retry-After waited,
# other 409s not retried, giving up after max retries, refused connections retried, the timeout; and the list
# filters (created, metadata, the request log's status and method) as they go on the wire.
# Minitest ships with Ruby (no gem to install).
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "plinth"
require_relative "scripted_server"
require "minitest/autorun"

class ScriptedTest < Minitest::Test
  def scripted(*replies)
    server = ScriptedServer.new(*replies)
    yield server, Plinth::Client.new(api_key: "sk_test_scripted", base_url: server.url, base_delay: 0.01)
  ensure
    server&.close
  end

  def test_503_then_409_in_progress_then_success_with_one_key
    scripted(ScriptedServer.problem(503, "service_unavailable", "Retry-After" => "0"),
             ScriptedServer.problem(409, "idempotency_request_in_progress"), ScriptedServer.ok) do |server, plinth|
      assert plinth.accounts.create(type: "business", country: "US").id.start_with?("acct_")
      seen = server.requests
      assert_equal 3, seen.size
      assert_match(/\A[0-9a-f-]{36}\z/, seen[0][1])
      assert_equal [seen[0][1]], seen.map(&:last).uniq
      assert_equal 2, plinth.retry_count
      assert_equal "req_OK", plinth.last_request_id
    end
  end

  def test_a_key_per_call_and_the_callers_key_wins
    scripted do |server, plinth|
      plinth.accounts.create(type: "business", country: "US")
      plinth.accounts.create(type: "business", country: "US")
      plinth.accounts.create({ type: "business", country: "US" }, idempotency_key: "mine-1")
      keys = server.requests.map(&:last)
      refute_equal keys[0], keys[1]
      assert_equal "mine-1", keys[2]
    end
  end

  def test_retry_after_is_waited
    scripted(ScriptedServer.problem(429, "rate_limited", "Retry-After" => "1")) do |server, plinth|
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      plinth.accounts.retrieve("acct_x")
      assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>=, 0.95
      assert_equal 2, server.requests.size
    end
  end

  def test_other_409s_and_4xx_are_not_retried
    scripted(ScriptedServer.problem(409, "account_frozen"), ScriptedServer.problem(400, "parameter_invalid")) do |server, plinth|
      e = assert_raises(Plinth::Error) { plinth.accounts.create(type: "business", country: "US") }
      assert_equal [409, "account_frozen"], [e.status, e.code]
      e = assert_raises(Plinth::Error) { plinth.accounts.create(type: "business", country: "US") }
      assert_equal [400, "req_P400"], [e.status, e.request_id]
      assert_equal 2, server.requests.size
      assert_equal 0, plinth.retry_count
    end
  end

  def test_gives_up_after_max_retries_with_the_last_error
    replies = Array.new(5) { ScriptedServer.problem(503, "service_unavailable") }
    scripted(*replies) do |server, plinth|
      e = assert_raises(Plinth::Error) { plinth.accounts.retrieve("acct_x") }
      assert_equal [503, "service_unavailable"], [e.status, e.code]
      assert_equal 1 + Plinth::DEFAULT_MAX_RETRIES, server.requests.size
    end
  end

  def test_refused_connections_are_retried_then_connection_error
    port = TCPServer.open("127.0.0.1", 0) { |s| s.addr[1] }
    plinth = Plinth::Client.new(api_key: "sk_test_scripted", base_url: "http://127.0.0.1:#{port}", base_delay: 0.01)
    e = assert_raises(Plinth::Error) { plinth.accounts.create(type: "business", country: "US") }
    assert_equal [0, "connection_error"], [e.status, e.code]
    assert_equal Plinth::DEFAULT_MAX_RETRIES, plinth.retry_count
  end

  NEW_KEY = '{"id":"key_1","object":"api_key","mode":"sandbox","hint":"sk_test_…AAAA","name":"ci","livemode":false,' \
            '"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"permissions":%s,"key":%s}'
  READ_ONLY = '{"accounts":"read","transfers":"none","transactions":"read","sandbox":"none","events":"none",' \
              '"webhook_endpoints":"none","api_keys":"none","requests":"none","payments":"none"}'
  ENDPOINT = '{"id":"we_1","object":"webhook_endpoint","url":"https://h.example/x","enabled_events":["*"],' \
             '"description":null,"status":"enabled","disabled_reason":null,"metadata":{},"livemode":false,' \
             '"created_at":"2026-11-22T10:53Z","secret":%s}'

  def answer(body, headers = {})
    ScriptedServer::Reply.new(status: 200, body: body, headers: headers, delay: 0)
  end

  def test_a_new_secret_is_a_string_and_a_replay_says_it_has_none
    replay = { "Idempotent-Replayed" => "true" }
    scripted(answer(format(NEW_KEY, "null", '"sk_test_AAAA"')), answer(format(NEW_KEY, "null", "null"), replay),
             answer(format(ENDPOINT, '"whsec_AAAA"')), answer(format(ENDPOINT, "null"), replay)) do |_server, plinth|
      first = plinth.api_keys.create(name: "ci", idempotency_key: "k")
      assert_equal ["sk_test_AAAA", false, "key_1", "ci"], [first.key, first.replayed?, first.id, first.name]
      again = plinth.api_keys.create(name: "ci", idempotency_key: "k")
      assert_equal [true, "key_1"], [again.replayed?, again.id]
      e = assert_raises(Plinth::SecretUnavailableError) { again.key }
      assert_match(/idempotent replay/, e.message)
      endpoint = plinth.webhook_endpoints.create(url: "https://h.example/x", enabled_events: ["*"])
      assert_equal ["whsec_AAAA", false], [endpoint.secret, endpoint.replayed?]
      rotated = plinth.webhook_endpoints.rotate_secret("we_1")
      assert rotated.replayed?
      assert_raises(Plinth::SecretUnavailableError) { rotated.secret }
      assert_equal "we_1", rotated.to_hash[:id]
    end
  end

  ACCOUNT_NUMBER = '{"id":"an_1","object":"fintech.account_number","account_id":"acct_1","routing_number":"110000000",' \
                   '"account_number_last4":"9012","name":"Main","status":"active","inbound_debits":"allowed",' \
                   '"livemode":false,"created_at":"2026-11-28T10:00Z","account_number":%s}'

  # docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only.
  def test_an_account_number_is_a_string_once_and_a_replay_says_it_has_none
    replay = { "Idempotent-Replayed" => "true" }
    scripted(answer(format(ACCOUNT_NUMBER, '"123456789012"')), answer(format(ACCOUNT_NUMBER, "null"), replay),
             answer(format(ACCOUNT_NUMBER, "null"))) do |_server, plinth|
      first = plinth.account_numbers.create(account_id: "acct_1", idempotency_key: "k")
      assert_equal ["123456789012", false, "an_1"], [first.account_number, first.replayed?, first.id]
      again = plinth.account_numbers.create(account_id: "acct_1", idempotency_key: "k")
      assert_equal [true, "9012"], [again.replayed?, again.account_number_last4]
      assert_raises(Plinth::SecretUnavailableError) { again.account_number }
      assert_nil plinth.account_numbers.retrieve("an_1").account_number
    end
  end

  # Permissions go on the wire as the API's object of group => level (Symbols as Strings); a restricted key reads its
  # permissions back, a full key's are nil; anything but a Hash of names is refused before it is sent.
  def test_permissions_on_create_and_on_the_key
    restricted = answer(format(NEW_KEY, READ_ONLY, '"rk_test_AAAA"'))
    scripted(restricted, answer(format(NEW_KEY, "null", '"sk_test_AAAA"'))) do |server, plinth|
      read_only = plinth.api_keys.create(name: "ro", permissions: { accounts: :read, "transactions" => "read" })
      levels = read_only.permissions
      assert_equal %w[rk_test_AAAA read read none], [read_only.key, levels.accounts, levels.transactions,
                                                     levels.transfers]
      assert_nil plinth.api_keys.create.permissions
      assert_raises(ArgumentError) { plinth.api_keys.create(permissions: "read") }
      assert_raises(ArgumentError) { plinth.api_keys.create(permissions: { accounts: 1 }) }
      sent = server.wire.map { |_, _, body| JSON.parse(body) }
      assert_equal [{ "name" => "ro", "permissions" => { "accounts" => "read", "transactions" => "read" } }, {}], sent
    end
  end

  LIST = '{"object":"list","data":[],"has_more":false}'
  TRANSFER = '{"id":"tr_1","object":"fintech.transfer","from_account_id":"acct_a","to_account_id":"acct_b","amount":4000,' \
             '"currency":"USD","description":null,"status":"pending","pending":true,"posted_amount":null,' \
             '"expires_at":"2026-11-22T11:53Z","resolved_at":null,"amount_reversed":0,"reversed":false,"metadata":{},' \
             '"livemode":false,"created_at":"2026-11-22T10:53Z"}'

  # The filters and metadata changes as the server reads them: deepObject query pairs (created[gte]=…,
  # metadata[key]=value, brackets percent-encoded as a URL requires), a Time as RFC 3339 UTC, and an update's
  # clear_metadata as the API's "metadata": "". The live scenario shows the server honours each.
  def test_filters_and_metadata_changes_on_the_wire
    replies = [LIST, LIST, LIST, ScriptedServer::ACCOUNT, TRANSFER, TRANSFER, TRANSFER].map { |body| answer(body) }
    scripted(*replies) do |server, plinth|
      plinth.accounts.list_page(status: "active", created: { gte: "2026-11-24T00:00Z", lt: Time.utc(2026, 11, 25, 1, 2, 3) },
                                metadata: { customer: "c-42", "a b" => "x&y" })
      plinth.transfers.list(status: "pending", metadata: { "order" => "A-1" }, limit: 5).to_a
      plinth.events.list_page(created: { gt: "2026-11-24T09:30:00+01:00" })
      plinth.accounts.update("acct_a", clear_metadata: true)
      plinth.transfers.update("tr_1", metadata: { "order" => "" })
      plinth.transfers.post("tr_1", amount: 2500)
      plinth.transfers.post("tr_1")
      wire = server.wire
      queries = wire.first(3).map { |_, target, _| URI.decode_www_form(URI(target).query).sort }
      assert_equal [["created[gte]", "2026-11-24T00:00Z"], ["created[lt]", "2026-11-25T01:02:03.000000Z"],
                    ["metadata[a b]", "x&y"], ["metadata[customer]", "c-42"], ["status", "active"]], queries[0]
      assert_includes wire[0][1], "created%5Bgte%5D=2026-11-24T00%3A00Z"
      assert_equal [["limit", "5"], ["metadata[order]", "A-1"], ["status", "pending"]], queries[1]
      assert_equal [["created[gt]", "2026-11-24T09:30:00+01:00"]], queries[2]
      assert_equal [["POST", "/v1/fintech/accounts/acct_a", '{"metadata":""}'],
                    ["POST", "/v1/fintech/transfers/tr_1", '{"metadata":{"order":""}}'],
                    ["POST", "/v1/fintech/transfers/tr_1/post", '{"amount":2500}'],
                    ["POST", "/v1/fintech/transfers/tr_1/post", "{}"]], wire.drop(3)
    end
  end

  def log_entry(id)
    %({"id":"#{id}","object":"request","method":"POST","route":"/v1/fintech/accounts","path":"/v1/fintech/accounts",) +
      '"status":200,"error_code":null,"duration_ms":3,"api_key_id":"key_1","api_key_hint":"sk_test_…abcd",' \
      '"idempotency_key":"k","idempotent_replayed":false,"count":null,"source":"api","body":"{\\"type\\":\\"business\\"}",' \
      '"body_truncated":false,"response_body":null,"response_truncated":false,"query":null,"bodies_hidden":false,"error_detail":null,"error_param":null,"livemode":false,"created_at":"2026-11-24T10:00Z"}'
  end

  # The request log's filters as the server reads them, on every page of a list: status, method and created[...]
  # (a Time with its offset sent as UTC), the cursor of the next page beside them; retrieve by Request-Id.
  def test_the_request_log_sends_its_filters_on_every_page
    first = %({"object":"list","data":[#{log_entry("req_2")}],"has_more":true})
    last = %({"object":"list","data":[#{log_entry("req_1")}],"has_more":false})
    scripted(answer(first), answer(last), answer(log_entry("req_1"))) do |server, plinth|
      since = Time.new(2026, 11, 25, 14, 30, 0, "+05:30")
      ids = plinth.requests.list(status: "200", method: "POST", created: { gte: since, lt: "2026-11-26T00:00Z" }, limit: 1)
                  .map(&:id)
      assert_equal %w[req_2 req_1], ids
      entry = plinth.requests.retrieve("req_1")
      assert_equal ["POST", 200, "api", '{"type":"business"}'], [entry.method, entry.status, entry.source, entry.body]
      wire = server.wire
      filters = [["created[gte]", "2026-11-25T09:00:00.000000Z"], ["created[lt]", "2026-11-26T00:00Z"], ["limit", "1"],
                 ["method", "POST"], ["status", "200"]]
      queries = wire.first(2).map { |_, target, _| URI.decode_www_form(URI(target).query).sort }
      assert_equal filters, queries[0]
      assert_equal (filters + [["starting_after", "req_2"]]).sort, queries[1]
      assert_equal ["GET", "/v1/requests/req_1", nil], wire[2]
    end
  end

  def test_the_request_log_refuses_a_bad_filter_before_sending
    scripted do |server, plinth|
      assert_raises(ArgumentError) { plinth.requests.list_page(method: "PATCH") }
      assert_raises(ArgumentError) { plinth.requests.list_page(created: { after: "2026-11-25T09:00Z" }) }
      assert_raises(ArgumentError) { plinth.requests.list_page(status: 42) }
      assert_empty server.wire
    end
  end

  def test_metadata_and_filters_are_refused_before_sending_when_malformed
    scripted do |server, plinth|
      e = assert_raises(ArgumentError) { plinth.accounts.list_page(created: { since: "2026-11-24T00:00Z" }) }
      assert_match(/unknown bound\(s\) since/, e.message)
      assert_raises(ArgumentError) { plinth.accounts.list_page(created: "2026-11-24T00:00Z") }
      assert_raises(ArgumentError) { plinth.transfers.list_page(metadata: "order") }
      e = assert_raises(ArgumentError) { plinth.accounts.update("acct_a", metadata: { "a" => "b" }, clear_metadata: true) }
      assert_match(/not both/, e.message)
      assert_raises(ArgumentError) { plinth.transfers.update("tr_1") }
      assert_empty server.wire
    end
  end

  def test_the_timeout_applies
    slow = ScriptedServer.ok.tap { |r| r.delay = 1.5 }
    server = ScriptedServer.new(slow)
    plinth = Plinth::Client.new(api_key: "sk_test_scripted", base_url: server.url, timeout: 0.3, max_retries: 0)
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    e = assert_raises(Plinth::Error) { plinth.accounts.retrieve("acct_x") }
    assert_equal 0, e.status
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 1.4
  ensure
    server&.close
  end
end
