# frozen_string_literal: true

require "base64"
require "json"
require "openssl"

module Plinth
  # Why Plinth::Webhook.verify refused a delivery: +reason+ is one of :missing_headers, :timestamp_invalid,
  # :timestamp_too_old, :timestamp_too_new, :secret_invalid, :signature_mismatch, :body_invalid.
  class WebhookVerificationError < StandardError
    attr_reader :reason

    def initialize(reason, message)
      super(message)
      @reason = reason
    end
  end

  # Verifies a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with OpenSSL:
  #
  #   event = Plinth::Webhook.verify(secret, request.headers, raw_body) # raises Plinth::WebhookVerificationError
  #
  # +raw_body+ must be the exact bytes received, not a re-serialised parse of them.
  module Webhook
    DEFAULT_TOLERANCE = 300

    # Checks that webhook-timestamp is within +tolerance+ seconds of +now+ and that one of the "v1," signatures is
    # the HMAC-SHA256, keyed with the decoded whsec_ secret, of "<id>.<timestamp>.<body>" (compared in constant
    # time); returns the parsed event (a PlinthGenerated::Event). Header names are matched without regard to case.
    def self.verify(secret, headers, raw_body, tolerance: DEFAULT_TOLERANCE, now: Time.now.to_i)
      header = ->(name) { headers.find { |k, _| k.to_s.downcase == name }&.last&.to_s }
      id = header.call("webhook-id")
      timestamp = header.call("webhook-timestamp")
      signatures = header.call("webhook-signature")
      if [id, timestamp, signatures].any? { |v| v.nil? || v.empty? }
        raise WebhookVerificationError.new(:missing_headers, "webhook-id, webhook-timestamp and webhook-signature are required")
      end
      raise WebhookVerificationError.new(:timestamp_invalid, "webhook-timestamp is not unix seconds") unless timestamp.match?(/\A\d+\z/)

      sent = Integer(timestamp, 10)
      raise WebhookVerificationError.new(:timestamp_too_old, "webhook-timestamp is too old") if sent < now - tolerance
      raise WebhookVerificationError.new(:timestamp_too_new, "webhook-timestamp is in the future") if sent > now + tolerance

      begin
        key = Base64.strict_decode64(secret.delete_prefix("whsec_"))
      rescue ArgumentError
        raise WebhookVerificationError.new(:secret_invalid, "the secret is not whsec_ followed by base64")
      end
      body = raw_body.to_s.b
      expected = Base64.strict_encode64(OpenSSL::HMAC.digest("SHA256", key, "#{id}.#{timestamp}.".b + body))
      matched = false
      signatures.split(" ").each do |candidate|
        version, signature = candidate.split(",", 2)
        matched = true if version == "v1" && signature && OpenSSL.secure_compare(signature, expected)
      end
      raise WebhookVerificationError.new(:signature_mismatch, "no webhook-signature matches the body") unless matched

      begin
        PlinthGenerated::Event.build_from_hash(JSON.parse(body.dup.force_encoding(Encoding::UTF_8)))
      rescue JSON::ParserError, ArgumentError => e
        raise WebhookVerificationError.new(:body_invalid, "the signed body is not an event: #{e.message}")
      end
    end
  end
end
