# frozen_string_literal: true

module Plinth
  DEFAULT_BASE_URL = "http://127.0.0.1:8080"
  DEFAULT_TIMEOUT = 30
  DEFAULT_MAX_RETRIES = 3

  # Entry point. Thread-safe for calls; +last_request_id+ is per thread.
  class Client
    attr_reader :api_client, :accounts, :api_keys, :transfers, :sandbox

    def initialize(api_key:, base_url: DEFAULT_BASE_URL, timeout: DEFAULT_TIMEOUT, max_retries: DEFAULT_MAX_RETRIES,
                   base_delay: 0.5)
      @retries = 0
      @mutex = Mutex.new
      @request_id_key = :"plinth_request_id_#{object_id}"
      uri = URI.parse(base_url)
      config = PlinthGenerated::Configuration.new
      config.scheme = uri.scheme
      config.host = uri.port == uri.default_port ? uri.host : "#{uri.host}:#{uri.port}"
      config.base_path = uri.path.to_s.sub(%r{/+\z}, "")
      config.access_token = api_key
      config.timeout = timeout
      config.use(RetryMiddleware, { max_retries: max_retries, base_delay: base_delay,
                                    on_retry: -> { @mutex.synchronize { @retries += 1 } },
                                    on_response: ->(id) { Thread.current[@request_id_key] = id if id } })
      @api_client = PlinthGenerated::ApiClient.new(config)
      transactions = PlinthGenerated::FintechTransactionsApi.new(@api_client)
      @accounts = Accounts.new(self, PlinthGenerated::FintechAccountsApi.new(@api_client), transactions)
      @api_keys = ApiKeys.new(self, PlinthGenerated::APIKeysApi.new(@api_client))
      @transfers = Transfers.new(self, PlinthGenerated::FintechTransfersApi.new(@api_client))
      @sandbox = Sandbox.new(self, transactions) # simulations only sandbox keys may run
    end

    # POST /v1/sandbox/signup (no key): a new sandbox organisation and its first key.
    def self.signup(base_url: DEFAULT_BASE_URL, name: nil)
      anonymous = new(api_key: nil, base_url: base_url)
      api = PlinthGenerated::APIKeysApi.new(anonymous.api_client)
      anonymous.call { api.sandbox_signup_with_http_info(sandbox_signup_request: PlinthGenerated::SandboxSignupRequest.new(name ? { name: name } : {})) }
    end

    # The Request-Id of the last response this thread received (success or error).
    def last_request_id
      Thread.current[@request_id_key]
    end

    # How many retries this client has made so far.
    def retry_count
      @mutex.synchronize { @retries }
    end

    # Runs a generated *_with_http_info call: its data, or one Plinth::Error.
    def call
      data, _status, _headers = yield
      data
    rescue PlinthGenerated::ApiError => e
      raise Error.from_api_error(e)
    end

    # The lowest level: any method and path with any JSON body (a Hash), decoded into a Hash. Retries, idempotency
    # keys and errors work as for every other call.
    def request(method, path, body: nil, idempotency_key: nil)
      headers = { "Accept" => "application/json" }
      headers["Content-Type"] = "application/json" unless body.nil?
      headers["Idempotency-Key"] = idempotency_key if idempotency_key
      call do
        @api_client.call_api(method.to_s.upcase.to_sym, path,
                             header_params: headers, body: body, auth_names: ["bearerAuth"], return_type: "Object")
      end
    end

    # Auto-pagination over any list: starting_after = the last id while has_more.
    def self.paginate
      Enumerator.new do |out|
        after = nil
        loop do
          page = yield(after)
          items = page.data || []
          items.each { |item| out << item }
          break unless page.has_more && !items.empty?

          after = items.last.id
        end
      end
    end
  end

  # Fintech accounts.
  class Accounts
    def initialize(client, api, transactions_api)
      @client = client
      @api = api
      @transactions_api = transactions_api
    end

    # create(type: "business", country: "US", kyb: {ein:, legal_name:}), or create(hash_or_model, idempotency_key: "…")
    # with a Hash or a PlinthGenerated::CreateAccountRequest.
    def create(params = nil, idempotency_key: nil, **fields)
      params ||= fields
      body = params.is_a?(Hash) ? PlinthGenerated::CreateAccountRequest.new(params) : params
      opts = idempotency_key ? { idempotency_key: idempotency_key } : {}
      @client.call { @api.create_account_with_http_info(body, opts) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_account_with_http_info(id) }
    end

    def list_page(limit: nil, starting_after: nil)
      opts = { limit: limit, starting_after: starting_after }.compact
      @client.call { @api.list_accounts_with_http_info(opts) }
    end

    # Every account, newest first, fetching pages of +page_size+ lazily.
    def list(page_size: nil)
      Client.paginate { |after| list_page(limit: page_size, starting_after: after) }
    end

    # One page of an account's transactions, newest first.
    def transactions_page(id, limit: nil, starting_after: nil)
      opts = { limit: limit, starting_after: starting_after }.compact
      @client.call { @transactions_api.list_account_transactions_with_http_info(id, opts) }
    end

    # Every transaction of an account, newest first, fetching pages of +page_size+ lazily.
    def transactions(id, page_size: nil)
      Client.paginate { |after| transactions_page(id, limit: page_size, starting_after: after) }
    end
  end

  # Fintech transfers.
  class Transfers
    def initialize(client, api)
      @client = client
      @api = api
    end

    # create(from_account_id:, to_account_id:, amount:, currency:, description: nil): synchronous, the posted
    # transfer. One Idempotency-Key, reused by retries, so the money moves once.
    def create(params = nil, idempotency_key: nil, **fields)
      params ||= fields
      body = params.is_a?(Hash) ? PlinthGenerated::CreateTransferRequest.new(params) : params
      opts = idempotency_key ? { idempotency_key: idempotency_key } : {}
      @client.call { @api.create_transfer_with_http_info(body, opts) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_transfer_with_http_info(id) }
    end
  end

  # Sandbox simulations.
  class Sandbox
    def initialize(client, api)
      @client = client
      @api = api
    end

    # deposit(account_id, amount:, description: nil): money in from nowhere, for testing; the credit transaction.
    def deposit(account_id, params = nil, idempotency_key: nil, **fields)
      params ||= fields
      body = params.is_a?(Hash) ? PlinthGenerated::SimulateDepositRequest.new(params) : params
      opts = idempotency_key ? { idempotency_key: idempotency_key } : {}
      @client.call { @api.simulate_deposit_with_http_info(account_id, body, opts) }
    end
  end

  # API keys of the caller's organisation.
  class ApiKeys
    def initialize(client, api)
      @client = client
      @api = api
    end

    def create(params = nil, idempotency_key: nil, **fields)
      params ||= fields
      body = params.is_a?(Hash) ? PlinthGenerated::CreateApiKeyRequest.new(params) : params
      opts = { create_api_key_request: body, idempotency_key: idempotency_key }.compact
      @client.call { @api.create_api_key_with_http_info(opts) }
    end

    def revoke(id)
      @client.call { @api.revoke_api_key_with_http_info(id) }
    end

    def list_page(limit: nil, starting_after: nil)
      @client.call { @api.list_api_keys_with_http_info({ limit: limit, starting_after: starting_after }.compact) }
    end

    def list(page_size: nil)
      Client.paginate { |after| list_page(limit: page_size, starting_after: after) }
    end
  end
end
