# frozen_string_literal: true

require "delegate"

module Plinth
  # Raised by a secret's reader (NewApiKey#key, WebhookEndpointWithSecret#secret, AccountNumber#account_number) when
  # the answer is the idempotent replay of an earlier one: the server shows a secret once and never stores it, so a
  # replay carries null.
  class SecretUnavailableError < StandardError; end

  # An answer that carries a secret shown only once. It reads like the generated model it wraps (every field, plus
  # +to_hash+); the secret's reader returns a String, never nil: on an idempotent replay (+replayed?+ true) there is
  # no secret to return, and it raises SecretUnavailableError instead, so no caller has to check for nil.
  class SecretAnswer < SimpleDelegator
    def initialize(model, replayed:)
      super(model)
      @replayed = replayed
    end

    # Whether this is the idempotent replay of an earlier answer (Idempotent-Replayed: true).
    def replayed?
      @replayed
    end

    private

    def secret_field(name)
      value = __getobj__.public_send(name)
      return value unless value.nil?

      raise SecretUnavailableError, "#{name} is shown only in the first answer; this is an idempotent replay " \
                                    "(Idempotent-Replayed: true) of an earlier request, which carried it"
    end
  end

  # A new API key (api_keys.create, sign-up): +key+ is the secret String (sk_test_…, or rk_test_… when restricted).
  class NewApiKey < SecretAnswer
    def key
      secret_field(:key)
    end
  end

  # A webhook endpoint as create and rotate_secret answer it: +secret+ is the whsec_… String.
  class WebhookEndpointWithSecret < SecretAnswer
    def secret
      secret_field(:secret)
    end
  end

  # A new account number as create answers it: +account_number+ is the 12-digit String (later reads show only
  # +account_number_last4+).
  class AccountNumber < SecretAnswer
    def account_number
      secret_field(:account_number)
    end
  end

  # A sandbox sign-up: +org_id+, and +api_key+, a NewApiKey.
  class SandboxSignup < SimpleDelegator
    def initialize(model, replayed: false)
      super(model)
      @api_key = NewApiKey.new(model.api_key, replayed: replayed)
    end

    attr_reader :api_key
  end
end
