# frozen_string_literal: true

module Plinth
  # What happened in the organisation, newest first, and where each event was delivered.
  class Events < Resource
    # One page; +type+ keeps one event type (e.g. "fintech.account.created"), +created+ bounds the time
    # ({ gte: "2026-11-24T00:00Z" }, as for accounts).
    def list_page(type: nil, created: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = query(type: type, created: created, limit: limit, starting_after: starting_after,
                   ending_before: ending_before)
      @client.call { @api.list_events_with_http_info(opts) }
    end

    # Every event, newest first: a lazy Enumerator fetching pages of +limit+.
    def list(type: nil, created: nil, limit: nil)
      paginate(limit) { |**page| list_page(type: type, created: created, **page) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_event_with_http_info(id) }
    end

    # One page of the deliveries of an event (one per endpoint it was sent to).
    def list_deliveries_page(id, limit: nil, starting_after: nil, ending_before: nil)
      opts = { limit: limit, starting_after: starting_after, ending_before: ending_before }.compact
      @client.call { @api.list_event_deliveries_with_http_info(id, opts) }
    end

    def list_deliveries(id, limit: nil)
      paginate(limit) { |**page| list_deliveries_page(id, **page) }
    end
  end

  # Where events are sent, signed (Standard Webhooks; verify with Plinth::Webhook.verify).
  class WebhookEndpoints < Resource
    # create(url:, enabled_events: ["*"], description: nil, metadata: nil): a Plinth::WebhookEndpointWithSecret
    # whose +secret+ (whsec_…) is shown this once.
    def create(params = nil, idempotency_key: nil, **fields)
      req = body(PlinthGenerated::CreateWebhookEndpointRequest, params, fields)
      with_secret { @api.create_webhook_endpoint_with_http_info(req, key_opts(idempotency_key)) }
    end

    def retrieve(id)
      @client.call { @api.retrieve_webhook_endpoint_with_http_info(id) }
    end

    def list_page(limit: nil, starting_after: nil, ending_before: nil)
      opts = { limit: limit, starting_after: starting_after, ending_before: ending_before }.compact
      @client.call { @api.list_webhook_endpoints_with_http_info(opts) }
    end

    def list(limit: nil)
      paginate(limit) { |**page| list_page(**page) }
    end

    # update(id, url:, enabled_events:, description:, status: "disabled", metadata:): any of them; description: nil
    # clears it; metadata: sets the keys given and removes those given "", clear_metadata: true removes every key.
    def update(id, params = nil, idempotency_key: nil, clear_metadata: false, **fields)
      params ||= fields
      if clear_metadata
        raise ArgumentError, "clear_metadata: true with a request model; set its metadata to \"\"" unless params.is_a?(Hash)
        params = params.merge(metadata: metadata_change(params[:metadata] || params["metadata"], true))
      end
      req = body(PlinthGenerated::UpdateWebhookEndpointRequest, params, fields)
      @client.call { @api.update_webhook_endpoint_with_http_info(id, req, key_opts(idempotency_key)) }
    end

    # The endpoint and its deliveries are gone: +deleted+ true.
    def delete(id)
      @client.call { @api.delete_webhook_endpoint_with_http_info(id) }
    end

    # A new secret (a Plinth::WebhookEndpointWithSecret); the previous one keeps signing beside it for
    # +expire_previous_in_seconds+ (the server's default: a day).
    def rotate_secret(id, expire_previous_in_seconds: nil, idempotency_key: nil)
      fields = { expire_previous_in_seconds: expire_previous_in_seconds }.compact
      opts = key_opts(idempotency_key).merge(
        rotate_webhook_endpoint_secret_request: PlinthGenerated::RotateWebhookEndpointSecretRequest.new(fields)
      )
      with_secret { @api.rotate_webhook_endpoint_secret_with_http_info(id, opts) }
    end

    # Sends a webhook_endpoint.test event to this endpoint only; the event.
    def test(id, idempotency_key: nil)
      @client.call { @api.test_webhook_endpoint_with_http_info(id, key_opts(idempotency_key)) }
    end

    # One page of the endpoint's deliveries; +status+ filters (pending, succeeded, failed).
    def list_deliveries_page(id, status: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = { status: status, limit: limit, starting_after: starting_after, ending_before: ending_before }.compact
      @client.call { @api.list_webhook_endpoint_deliveries_with_http_info(id, opts) }
    end

    def list_deliveries(id, status: nil, limit: nil)
      paginate(limit) { |**page| list_deliveries_page(id, status: status, **page) }
    end

    private

    def with_secret(&call)
      data, headers = @client.call_with_headers(&call)
      WebhookEndpointWithSecret.new(data, replayed: Client.replayed?(headers))
    end
  end

  # One event sent to one endpoint.
  class WebhookDeliveries < Resource
    # One attempt now, outside the schedule: the delivery.
    def retry(id, idempotency_key: nil)
      @client.call { @api.retry_webhook_delivery_with_http_info(id, key_opts(idempotency_key)) }
    end
  end

  # API keys of the caller's organisation.
  class ApiKeys < Resource
    # create(mode: "sandbox", name: "CI deploys", permissions: { accounts: "read" }) (all optional): a
    # Plinth::NewApiKey whose +key+ is shown this once. +permissions+ (group => "none", "read" or "write"; a group left
    # out is none) makes a restricted rk_test_/rk_live_ key, whose +permissions+ then lists every group (nil for a
    # full key); docs/api.md, "Create a key".
    def create(params = nil, idempotency_key: nil, **fields)
      params ||= fields
      params = with_permissions(params) if params.is_a?(Hash)
      req = body(PlinthGenerated::CreateApiKeyRequest, params, nil)
      opts = key_opts(idempotency_key).merge(create_api_key_request: req)
      data, headers = @client.call_with_headers { @api.create_api_key_with_http_info(opts) }
      NewApiKey.new(data, replayed: Client.replayed?(headers))
    end

    def retrieve(id)
      @client.call { @api.retrieve_api_key_with_http_info(id) }
    end

    def list_page(limit: nil, starting_after: nil, ending_before: nil)
      opts = { limit: limit, starting_after: starting_after, ending_before: ending_before }.compact
      @client.call { @api.list_api_keys_with_http_info(opts) }
    end

    def list(limit: nil)
      paginate(limit) { |**page| list_page(**page) }
    end

    # The key stops working at once: +revoked_at+ set.
    def revoke(id, idempotency_key: nil)
      @client.call { @api.revoke_api_key_with_http_info(id, key_opts(idempotency_key)) }
    end

    private

    # Permissions as the API takes them, group and level as Strings (Symbols welcome); the groups and levels are the
    # server's to judge (a 400 naming permissions.<group>), so a group newer than this client still goes through.
    def with_permissions(params)
      params = params.transform_keys(&:to_sym)
      given = params[:permissions]
      return params if given.nil?

      shape = given.is_a?(Hash) && given.all? { |g, l| [g, l].all? { |x| x.is_a?(String) || x.is_a?(Symbol) } }
      unless shape
        raise ArgumentError, "permissions: a Hash of group => level, e.g. { accounts: \"read\" } (got #{given.inspect})"
      end

      params.merge(permissions: given.to_h { |group, level| [group.to_s, level.to_s] })
    end
  end
end
