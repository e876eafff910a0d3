# frozen_string_literal: true

# Reversals, balances at a moment, statements and nicknames as they go on the wire, against the scripted server:
# a reversal is a POST with its own Idempotency-Key and only the fields given; its list sends its cursor on every
# page; a Time is sent as RFC 3339 UTC to the millisecond; a nickname update sends no metadata, and "" clears.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "plinth"
require_relative "scripted_server"
require "minitest/autorun"

class LedgerTest < Minitest::Test
  REVERSAL = '{"id":"trr_%s","object":"fintech.transfer_reversal","transfer_id":"tr_1","amount":1000,' \
             '"currency":"USD","description":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}'
  BALANCES = '{"object":"fintech.balances","account_id":"acct_a","at":"2026-11-22T10:53Z",' \
             '"current_balance":{"amount":3000,"currency":"USD"},' \
             '"available_balance":{"amount":2500,"currency":"USD"},"last_transaction_id":null,"livemode":false}'
  STATEMENT = '{"object":"fintech.statement","account_id":"acct_a","currency":"USD","from":"2026-11-22T10:00Z",' \
              '"to":"2026-11-22T11:00Z","opening_balance":0,"closing_balance":2000,' \
              '"credits":{"count":1,"amount":3000},"debits":{"count":1,"amount":1000},"livemode":false}'

  def scripted(*bodies)
    replies = bodies.map { |b| ScriptedServer::Reply.new(status: 200, body: b, headers: {}, delay: 0) }
    server = ScriptedServer.new(*replies)
    yield server, Plinth::Client.new(api_key: "sk_test_scripted", base_url: server.url, base_delay: 0.01)
  ensure
    server&.close
  end

  def page(ids, more)
    %({"object":"list","data":[#{ids.map { |id| format(REVERSAL, id) }.join(",")}],"has_more":#{more}})
  end

  def test_reversals_on_the_wire
    scripted(format(REVERSAL, "1"), format(REVERSAL, "2"), page(%w[2], true), page(%w[1], false),
             format(REVERSAL, "1")) do |server, plinth|
      reversal = plinth.transfers.reverse("tr_1", amount: 1000, metadata: { case: "R-1" })
      assert_equal ["trr_1", "tr_1", 1000], [reversal.id, reversal.transfer_id, reversal.amount]
      plinth.transfers.reverse("tr_1", idempotency_key: "mine-1")
      assert_equal %w[trr_2 trr_1], plinth.transfers.list_reversals("tr_1", limit: 1).map(&:id)
      assert_equal "trr_1", plinth.transfers.retrieve_reversal("tr_1", "trr_1").id
      keys = server.requests.map(&:last)
      assert_match(/\A[0-9a-f-]{36}\z/, keys[0])
      assert_equal ["mine-1", nil, nil, nil], keys.drop(1)
      assert_equal [["POST", "/v1/fintech/transfers/tr_1/reversals", '{"amount":1000,"metadata":{"case":"R-1"}}'],
                    ["POST", "/v1/fintech/transfers/tr_1/reversals", "{}"],
                    ["GET", "/v1/fintech/transfers/tr_1/reversals?limit=1", nil],
                    ["GET", "/v1/fintech/transfers/tr_1/reversals?limit=1&starting_after=trr_2", nil],
                    ["GET", "/v1/fintech/transfers/tr_1/reversals/trr_1", nil]], server.wire
    end
  end

  def test_balances_and_statements_on_the_wire
    scripted(BALANCES, BALANCES, STATEMENT, STATEMENT) do |server, plinth|
      past = plinth.accounts.balances("acct_a", at: Time.new(2026, 11, 22, 16, 23, 4.5r, "+05:30"))
      assert_equal [3000, 2500, "USD"], [past.current_balance.amount, past.available_balance.amount,
                                         past.current_balance.currency]
      plinth.accounts.balances("acct_a")
      statement = plinth.accounts.statement("acct_a", from: "2026-11-22T10:00Z", to: Time.utc(2026, 11, 22, 11))
      assert_equal [0, 2000, 1, 3000, 1, 1000],
                   [statement.opening_balance, statement.closing_balance, statement.credits.count,
                    statement.credits.amount, statement.debits.count, statement.debits.amount]
      plinth.accounts.statement("acct_a", from: "2026-11-22T10:00:00+01:00", to: "2026-11-22T11:00Z")
      targets = server.wire.map { |method, target, _| [method, URI.decode_www_form_component(target)] }
      path = "/v1/fintech/accounts/acct_a"
      assert_equal [["GET", "#{path}/balances?at=2026-11-22T10:53:04.500Z"], ["GET", "#{path}/balances"],
                    ["GET", "#{path}/statement?from=2026-11-22T10:00Z&to=2026-11-22T11:00:00.000Z"],
                    ["GET", "#{path}/statement?from=2026-11-22T10:00:00+01:00&to=2026-11-22T11:00Z"]], targets
      assert_raises(ArgumentError) { plinth.accounts.balances("acct_a", at: 42) }
      assert_raises(ArgumentError) { plinth.accounts.statement("acct_a", from: "2026-11-22T10:00Z") }
      assert_empty server.wire
    end
  end

  def test_nicknames_on_the_wire
    named = ScriptedServer::ACCOUNT.sub('"kyb":null', '"kyb":null,"nickname":"Payroll"')
    scripted(named, named, named, ScriptedServer::ACCOUNT) do |server, plinth|
      assert_equal "Payroll", plinth.accounts.create(type: "business", country: "US", nickname: "Payroll").nickname
      plinth.accounts.update("acct_a", nickname: "Payroll")
      plinth.accounts.update("acct_a", nickname: "Payroll", metadata: { "team" => "ops" })
      assert_nil plinth.accounts.update("acct_a", nickname: "").nickname
      assert_equal ['{"type":"business","country":"US","nickname":"Payroll"}', '{"nickname":"Payroll"}',
                    '{"metadata":{"team":"ops"},"nickname":"Payroll"}', '{"nickname":""}'],
                   server.wire.map(&:last)
      assert_raises(ArgumentError) { plinth.accounts.update("acct_a") }
    end
  end
end
