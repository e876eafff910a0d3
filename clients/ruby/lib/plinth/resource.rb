# frozen_string_literal: true

module Plinth
  # What every resource object shares: the client (its #call) and the generated API class it wraps. Methods take
  # a request body as keywords (or one Hash, or a generated request model); a key given as +nil+ is sent as JSON
  # null (clearing a nullable field), a key left out is not sent. POSTs take +idempotency_key:+ to choose the key
  # (otherwise the client makes one per call, reused by its retries).
  class Resource
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
  end

  # Fintech accounts: create, list, retrieve and the lifecycle (freeze, unfreeze, close).
  class Accounts < Resource
    # create(type: "business", country: "US", kyb: { ein:, legal_name: }): the new account.
    def create(params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::CreateAccountRequest, params, fields)
      @client.call { @api.create_account_with_http_info(req, key_opts(idempotency_key)) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_account_with_http_info(id) }
    end

    # One page (+data+, +has_more+), newest first; +status+ filters (active, frozen, closed).
    def list_page(status: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = { status: status, limit: limit, starting_after: starting_after, ending_before: ending_before }.compact
      @client.call { @api.list_accounts_with_http_info(opts) }
    end

    # Every account, newest first: a lazy Enumerator fetching pages of +limit+.
    def list(status: nil, limit: nil)
      paginate(limit) { |**page| list_page(status: status, **page) }
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
    # One page of an account's transactions, newest first.
    def list_page(account_id, limit: nil, starting_after: nil, ending_before: nil)
      opts = { limit: limit, starting_after: starting_after, ending_before: ending_before }.compact
      @client.call { @api.list_account_transactions_with_http_info(account_id, opts) }
    end

    # Every transaction of an account, newest first: a lazy Enumerator fetching pages of +limit+.
    def list(account_id, limit: nil)
      paginate(limit) { |**page| list_page(account_id, **page) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_transaction_with_http_info(id) }
    end
  end

  # Fintech transfers between two accounts of the organisation.
  class Transfers < Resource
    # create(from_account_id:, to_account_id:, amount:, currency:, description: nil): synchronous, the posted
    # transfer. One Idempotency-Key, reused by retries, so the money moves once.
    def create(params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::CreateTransferRequest, params, fields)
      @client.call { @api.create_transfer_with_http_info(req, key_opts(idempotency_key)) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_transfer_with_http_info(id) }
    end

    # One page, newest first; +account_id+ keeps the transfers from or to that account.
    def list_page(account_id: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = { account_id: account_id, limit: limit, starting_after: starting_after, ending_before: ending_before }
      @client.call { @api.list_transfers_with_http_info(opts.compact) }
    end

    # Every transfer, newest first: a lazy Enumerator fetching pages of +limit+.
    def list(account_id: nil, limit: nil)
      paginate(limit) { |**page| list_page(account_id: account_id, **page) }
    end
  end

  # Sandbox simulations (sandbox keys only): money in from, and out to, nowhere, for testing.
  class Sandbox < Resource
    # deposit(account_id, amount: 10_000, description: nil): the credit transaction.
    def deposit(account_id, params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::SimulateDepositRequest, params, fields)
      @client.call { @api.simulate_deposit_with_http_info(account_id, req, key_opts(idempotency_key)) }
    end

    # withdraw(account_id, amount: 500, description: nil): the debit transaction (amount negative).
    def withdraw(account_id, params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::SimulateWithdrawalRequest, params, fields)
      @client.call { @api.simulate_withdrawal_with_http_info(account_id, req, key_opts(idempotency_key)) }
    end
  end
end
