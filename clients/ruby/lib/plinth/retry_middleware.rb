# frozen_string_literal: true

require "faraday"

module Plinth
  # Faraday middleware under every generated call:
  # - sends `{}` as the body of a POST without one (see #call);
  # - adds one Idempotency-Key (UUID v4) to every authenticated POST that has none, the same on every attempt;
  # - retries connection errors and timeouts, 409 idempotency_request_in_progress, 429 and 5xx, at most
  #   +max_retries+ times, waiting Retry-After seconds when given, else exponential backoff with full jitter;
  # - reports the Request-Id of each response to +on_response+.
  class RetryMiddleware < Faraday::Middleware
    RETRYABLE_ERRORS = [Faraday::ConnectionFailed, Faraday::TimeoutError, Errno::ECONNREFUSED, Errno::ECONNRESET].freeze

    # options: max_retries (3), base_delay (0.5 s), on_retry (callable), on_response (callable, gets the Request-Id).
    # A positional Hash, because the generated Configuration#use hands middleware arguments on positionally.
    def initialize(app, options = {})
      super(app)
      @max_retries = options.fetch(:max_retries, 3)
      @base_delay = options.fetch(:base_delay, 0.5)
      @on_retry = options[:on_retry]
      @on_response = options[:on_response]
    end

    def call(env)
      headers = env.request_headers
      # The generated ApiClient sends Content-Type: application/json by default, also on a POST without a body
      # (revoking a key), which Plinth refuses as body_malformed; and without a Content-Type Net::HTTP supplies
      # application/x-www-form-urlencoded (415). Such a POST sends `{}`, which those operations accept.
      if env.method == :post && (env.body.nil? || env.body == "")
        env.body = "{}"
        headers["Content-Type"] = "application/json"
      end
      if env.method == :post && !header?(headers, "Idempotency-Key") && header?(headers, "Authorization")
        headers["Idempotency-Key"] = SecureRandom.uuid
      end
      # A POST without a key (only the unauthenticated sign-up, which refuses one) is retried only where the
      # server cannot have executed it: a refused connection or a 429.
      safe = env.method != :post || header?(headers, "Idempotency-Key")
      request_body = env.body
      attempt = 0
      loop do
        env.body = request_body # the adapter replaces it with the response body
        begin
          response = @app.call(env)
        rescue *RETRYABLE_ERRORS => e
          raise if attempt >= @max_retries || !(safe || refused?(e))

          pause(nil, attempt)
          attempt += 1
          next
        end
        @on_response&.call(response.headers["Request-Id"])
        if attempt < @max_retries && (safe || response.status == 429) && retry?(response)
          pause(response.headers["Retry-After"], attempt)
          attempt += 1
          next
        end
        return response
      end
    end

    private

    def header?(headers, name)
      headers.any? { |k, v| k.to_s.casecmp?(name) && !v.nil? }
    end

    def refused?(error)
      error.is_a?(Errno::ECONNREFUSED) || (error.is_a?(Faraday::ConnectionFailed) && error.message.include?("refused"))
    end

    def retry?(response)
      return true if response.status == 429 || response.status >= 500
      return false unless response.status == 409

      JSON.parse(response.body.to_s)["code"] == "idempotency_request_in_progress"
    rescue JSON::ParserError, TypeError
      false
    end

    def pause(retry_after, attempt)
      @on_retry&.call
      seconds = Integer(retry_after.to_s.strip, exception: false)
      delay = if seconds
        [seconds, 60].min
      else
        cap = @base_delay * (2**[attempt, 10].min)
        cap / 2 + rand * cap / 2
      end
      sleep(delay)
    end
  end
end
