# frozen_string_literal: true

module Plinth
  DEFAULT_BASE_URL = "http://127.0.0.1:8080"
  DEFAULT_TIMEOUT = 30
  DEFAULT_MAX_RETRIES = 3

  # Entry point: one resource object per group of operations (accounts, transactions, transfers, sandbox, events,
  # webhook_endpoints, webhook_deliveries, api_keys, requests: operations.rb, generated). Thread-safe for calls; +last_request_id+ is per
  # thread.
  class Client
    # The resources' readers (accounts, transfers, …): operations.rb, generated.
    include Resources

    attr_reader :api_client

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
      init_resources
    end

    # POST /v1/sandbox/signup (no key): a new sandbox organisation and its first key, a Plinth::SandboxSignup whose
    # +api_key.key+ is a String.
    def self.sign_up(base_url = DEFAULT_BASE_URL, name: nil)
      anonymous = new(api_key: nil, base_url: base_url)
      api = PlinthGenerated::APIKeysApi.new(anonymous.api_client)
      body = PlinthGenerated::SandboxSignupRequest.new(name ? { name: name } : {})
      data, headers = anonymous.call_with_headers { api.sandbox_signup_with_http_info(sandbox_signup_request: body) }
      SandboxSignup.new(data, replayed: Client.replayed?(headers))
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
    def call(&block)
      call_with_headers(&block).first
    end

    # Like #call, with the response headers too: [data, headers].
    def call_with_headers
      data, _status, headers = yield
      [data, headers || {}]
    rescue PlinthGenerated::ApiError => e
      raise Error.from_api_error(e)
    end

    # The lowest level: any method and path with any JSON body (a Hash), decoded into a Hash. Retries, idempotency
    # keys and errors work as for every other call. For what the typed methods do not know yet.
    def request(method, path, body: nil, idempotency_key: nil)
      headers = { "Accept" => "application/json" }
      headers["Content-Type"] = "application/json" unless body.nil?
      headers["Idempotency-Key"] = idempotency_key if idempotency_key
      call do
        @api_client.call_api(method.to_s.upcase.to_sym, path,
                             header_params: headers, body: body, auth_names: ["bearerAuth"], return_type: "Object")
      end
    end

    # Whether a response is the idempotent replay of an earlier one (Idempotent-Replayed: true).
    def self.replayed?(headers)
      headers.any? { |k, v| k.to_s.casecmp?("Idempotent-Replayed") && v.to_s == "true" }
    end

    # Auto-pagination over any list: starting_after = the last id while has_more. A lazy Enumerator.
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
end
