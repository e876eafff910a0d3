# frozen_string_literal: true

module Plinth
  # Fintech transfers between two accounts of the organisation: posted at once, or pending (money held on the
  # sender) until posted, voided or expired.
  class Transfers < Resource
    # create(from_account_id:, to_account_id:, amount:, currency:, description: nil, metadata: nil): posted at once.
    # With pending: true (and expires_in_seconds:, 60 to 2592000, default 7 days) the amount is only held: the
    # sender's available_balance drops, nothing moves until #post. One Idempotency-Key, reused by retries, so the
    # money moves (or is held) once.
    def create(params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::CreateTransferRequest, params, fields)
      @client.call { @api.create_transfer_with_http_info(req, key_opts(idempotency_key)) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_transfer_with_http_info(id) }
    end

    # update(id, metadata: { "order" => "A-2", "old" => "" }) or update(id, clear_metadata: true): as for accounts.
    def update(id, metadata: nil, clear_metadata: false, idempotency_key: nil)
      req = PlinthGenerated::UpdateTransferRequest.new(metadata: metadata_change(metadata, clear_metadata))
      @client.call { @api.update_transfer_with_http_info(id, req, key_opts(idempotency_key)) }
    end

    # Moves a pending transfer's money: all of it, or +amount+ of it (the rest returns to the sender's available
    # balance). The transfer, posted, with posted_amount. 409 transfer_not_pending / transfer_expired otherwise.
    def post(id, amount: nil, idempotency_key: nil)
      req = PlinthGenerated::PostTransferRequest.new(amount.nil? ? {} : { amount: amount })
      opts = key_opts(idempotency_key).merge(post_transfer_request: req)
      @client.call { @api.post_transfer_with_http_info(id, opts) }
    end

    # Releases a pending transfer's hold, moving nothing: the transfer, voided.
    def void(id, idempotency_key: nil)
      @client.call { @api.void_transfer_with_http_info(id, key_opts(idempotency_key)) }
    end

    # Corrects a posted transfer by moving money back (docs/api.md#correcting-a-transfer): +amount+ of it, or all
    # that remains unreversed; +description+ and +metadata+ optional. The reversal (trr_…); the transfer's
    # amount_reversed grows, and reversed is true once all of it is back. 409 transfer_not_reversible for a transfer
    # not posted or already fully reversed. One Idempotency-Key, reused by retries, so the money moves back once.
    def reverse(id, amount: nil, description: nil, metadata: nil, idempotency_key: nil)
      fields = { amount: amount, description: description }.compact
      fields[:metadata] = metadata_pairs(metadata, "metadata") unless metadata.nil?
      req = PlinthGenerated::CreateTransferReversalRequest.new(fields)
      opts = key_opts(idempotency_key).merge(create_transfer_reversal_request: req)
      @client.call { @api.create_transfer_reversal_with_http_info(id, opts) }
    end

    # One page of a transfer's reversals, newest first.
    def list_reversals_page(id, limit: nil, starting_after: nil, ending_before: nil)
      opts = query(limit: limit, starting_after: starting_after, ending_before: ending_before)
      @client.call { @api.list_transfer_reversals_with_http_info(id, opts) }
    end

    # Every reversal of a transfer, newest first: a lazy Enumerator fetching pages of +limit+.
    def list_reversals(id, limit: nil)
      paginate(limit) { |**page| list_reversals_page(id, **page) }
    end

    # One reversal of the transfer +id+ (404 for a reversal of another transfer).
    def retrieve_reversal(id, reversal_id)
      @client.call { @api.retrieve_transfer_reversal_with_http_info(id, reversal_id) }
    end

    # One page, newest first. Filters: +account_id+ (from or to that account), +status+ (pending, posted, voided,
    # expired), +created+ and +metadata+ as for accounts.
    def list_page(account_id: nil, status: nil, created: nil, metadata: nil, limit: nil, starting_after: nil,
                  ending_before: nil)
      opts = query(account_id: account_id, status: status, created: created, metadata: metadata, limit: limit,
                   starting_after: starting_after, ending_before: ending_before)
      @client.call { @api.list_transfers_with_http_info(opts) }
    end

    # Every transfer, newest first: a lazy Enumerator fetching pages of +limit+, the filters on each.
    def list(account_id: nil, status: nil, created: nil, metadata: nil, limit: nil)
      paginate(limit) do |**page|
        list_page(account_id: account_id, status: status, created: created, metadata: metadata, **page)
      end
    end
  end

  # Sandbox simulations (sandbox keys only): money in from, and out to, nowhere, and time passing, for testing.
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

    # Expires a pending transfer now, as if its expires_at had passed: the transfer, expired, its hold released.
    def expire_transfer(id, idempotency_key: nil)
      @client.call { @api.simulate_transfer_expiry_with_http_info(id, key_opts(idempotency_key)) }
    end
  end
end
