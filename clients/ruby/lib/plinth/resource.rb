# frozen_string_literal: true

module Plinth
  # What every resource object shares: the client (its #call) and the generated API class it wraps. Methods take
  # a request body as keywords (or one Hash, or a generated request model); a key given as +nil+ is sent as JSON
  # null (clearing a nullable field), a key left out is not sent. POSTs take +idempotency_key:+ to choose the key
  # (otherwise the client makes one per call, reused by its retries).
  class Resource
    CREATED_BOUNDS = %w[gte gt lte lt].freeze

    def initialize(client, api)
      @client = client
      @api = api
    end

    private

    def body(model, params, fields)
      params ||= fields
      params.is_a?(Hash) ? model.new(params) : params
    end

    def key_opts(idempotency_key)
      idempotency_key ? { idempotency_key: idempotency_key } : {}
    end

    def paginate(limit, &page)
      Client.paginate { |after| page.call(limit: limit, starting_after: after) }
    end

    # The query of a list: nils left out; +created+ (a Hash of gte/gt/lte/lt, each a time String or a Time) and
    # +metadata+ (a Hash) stay Hashes, which Faraday's nested encoder sends as created[gte]=… and metadata[k]=v:
    # the API's deepObject form.
    def query(created: nil, metadata: nil, **params)
      params = params.compact
      params[:created] = created_bounds(created) unless created.nil?
      params[:metadata] = metadata_pairs(metadata, "metadata filter") unless metadata.nil?
      params
    end

    def created_bounds(created)
      raise ArgumentError, "created: a Hash of gte, gt, lte, lt (got #{created.class})" unless created.is_a?(Hash)

      bounds = created.to_h { |bound, time| [bound.to_s, time] }.compact
      unknown = bounds.keys - CREATED_BOUNDS
      raise ArgumentError, "created: unknown bound(s) #{unknown.join(", ")}; use gte, gt, lte, lt" unless unknown.empty?

      bounds.transform_values do |time|
        next time if time.is_a?(String)
        raise ArgumentError, "created: a time String or a Time, not #{time.class}" unless time.respond_to?(:to_time)

        time.to_time.utc.iso8601(6) # RFC 3339, to the microsecond
      end
    end

    def metadata_pairs(metadata, what)
      raise ArgumentError, "#{what}: a Hash of String keys and values (got #{metadata.class})" unless metadata.is_a?(Hash)

      metadata.to_h { |k, v| [k.to_s, v.to_s] }
    end

    # The metadata of an update: the pairs to set (a value "" removes its key), or "" (the API's "remove every
    # key") when +clear+; one of the two.
    def metadata_change(metadata, clear)
      raise ArgumentError, "give metadata: or clear_metadata: true, not both" if clear && !metadata.nil?
      return "" if clear

      metadata_pairs(metadata, "metadata")
    end

    # A moment as the API takes it: a String as given (2026-11-24T09:30Z names that minute; RFC 3339 with an offset,
    # an instant), or a Time (or anything with #to_time) as RFC 3339 UTC to the millisecond, as the server keeps it.
    def moment(time, what)
      return time if time.is_a?(String)
      raise ArgumentError, "#{what}: a time String or a Time, not #{time.class}" unless time.respond_to?(:to_time)

      time.to_time.utc.iso8601(3)
    end
  end

  # Fintech accounts: create, list, retrieve, metadata and nickname, the lifecycle (freeze, unfreeze, close), and the
  # balances at a moment and statements (read through the generated transactions API, whose tag they carry).
  class Accounts < Resource
    def initialize(client, api, money)
      super(client, api)
      @money = money
    end

    # create(type: "business", country: "US", kyb: { ein:, legal_name: }, nickname: "Payroll",
    # metadata: { "customer" => "c-42" }).
    def create(params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::CreateAccountRequest, params, fields)
      @client.call { @api.create_account_with_http_info(req, key_opts(idempotency_key)) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_account_with_http_info(id) }
    end

    # update(id, metadata: { "customer" => "c-42", "old" => "" }) sets keys and removes those given ""; other keys
    # stay. update(id, clear_metadata: true) removes every key. update(id, nickname: "Payroll") names the account,
    # nickname: "" clears the name; metadata and nickname may go together. Allowed on a closed account.
    def update(id, metadata: nil, clear_metadata: false, nickname: nil, idempotency_key: nil)
      change = nickname.nil? ? {} : { nickname: nickname }
      change[:metadata] = metadata_change(metadata, clear_metadata) if nickname.nil? || !metadata.nil? || clear_metadata
      req = PlinthGenerated::UpdateAccountRequest.new(change)
      @client.call { @api.update_account_with_http_info(id, req, key_opts(idempotency_key)) }
    end

    # The balances as they stood at +at+ (inclusive; a String or a Time, default now): a PlinthGenerated::
    # AccountBalances with current_balance, available_balance and last_transaction_id.
    def balances(id, at: nil)
      opts = at.nil? ? {} : { at: moment(at, "at") }
      @client.call { @money.retrieve_account_balances_with_http_info(id, opts) }
    end

    # A statement for [from, to) (each a String or a Time): opening_balance, closing_balance, credits and debits
    # ({count, amount}), with closing = opening + credits - debits.
    def statement(id, from:, to:)
      @client.call { @money.retrieve_account_statement_with_http_info(moment(from, "from"), moment(to, "to"), id) }
    end

    # One page (+data+, +has_more+), newest first. Filters: +status+ (active, frozen, closed), +created+
    # ({ gte: "2026-11-24T00:00Z", lt: Time.now }), +metadata+ ({ "customer" => "c-42" }: every pair must hold).
    def list_page(status: nil, created: nil, metadata: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = query(status: status, created: created, metadata: metadata, limit: limit,
                   starting_after: starting_after, ending_before: ending_before)
      @client.call { @api.list_accounts_with_http_info(opts) }
    end

    # Every account, newest first: a lazy Enumerator fetching pages of +limit+, the filters on each.
    def list(status: nil, created: nil, metadata: nil, limit: nil)
      paginate(limit) { |**page| list_page(status: status, created: created, metadata: metadata, **page) }
    end

    # freeze(id, reason: "compliance_review", note: "…"): no money moves in or out until it is unfrozen.
    def freeze(id, params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::FreezeAccountRequest, params, fields)
      @client.call { @api.freeze_account_with_http_info(id, req, key_opts(idempotency_key)) }
    end

    def unfreeze(id, idempotency_key: nil)
      @client.call { @api.unfreeze_account_with_http_info(id, key_opts(idempotency_key)) }
    end

    # close(id, reason: "customer_request", note: "…") (both optional): final.
    def close(id, params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::CloseAccountRequest, params, fields)
      opts = key_opts(idempotency_key).merge(close_account_request: req)
      @client.call { @api.close_account_with_http_info(id, opts) }
    end
  end

  # An account's ledger lines.
  class Transactions < Resource
    # One page of an account's transactions, newest first; +created+ as for accounts.
    def list_page(account_id, created: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = query(created: created, limit: limit, starting_after: starting_after, ending_before: ending_before)
      @client.call { @api.list_account_transactions_with_http_info(account_id, opts) }
    end

    # Every transaction of an account, newest first: a lazy Enumerator fetching pages of +limit+.
    def list(account_id, created: nil, limit: nil)
      paginate(limit) { |**page| list_page(account_id, created: created, **page) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_transaction_with_http_info(id) }
    end
  end
end
