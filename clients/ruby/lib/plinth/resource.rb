# frozen_string_literal: true

module Plinth
  # What every resource object shares: the client (its #call) and the generated API class it wraps. Methods take
  # a request body as keywords (or one Hash, or a generated request model); a key given as +nil+ is sent as JSON
  # null (clearing a nullable field), a key left out is not sent. POSTs take +idempotency_key:+ to choose the key
  # (otherwise the client makes one per call, reused by its retries).
  class Resource
    CREATED_BOUNDS = %w[gte gt lte lt].freeze

    # The generated subclasses (operations.rb) make their generated API objects from client.api_client.
    def initialize(client)
      @client = client
    end

    private

    def body(model, params, fields)
      params ||= fields
      params = with_permissions(params) if params.is_a?(Hash)
      params.is_a?(Hash) ? model.new(params) : params
    end

    # A write whose answer holds a secret shown once: the answer as +cls+ (secrets.rb), which knows a replay.
    def secret_answer(cls, &call)
      data, headers = @client.call_with_headers(&call)
      cls.new(data, replayed: Client.replayed?(headers))
    end

    # The keywords of an update whose body has a metadata change: +metadata+ sets keys (a value "" removes its
    # key), +clear_metadata+ removes every key; one of the two, or another field (a nickname) alone.
    def metadata_update(fields, clear)
      fields = fields.transform_keys(&:to_sym)
      metadata = fields.delete(:metadata)
      fields[:metadata] = metadata_change(metadata, clear) if clear || !metadata.nil? || fields.compact.empty?
      fields
    end

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
end
