# frozen_string_literal: true

module Plinth
  # The request log (GET /v1/requests): every authenticated request of this key's organisation and mode, newest
  # first. An entry is written a few hundred milliseconds after its answer (the server writes the log in batches).
  class Requests < Resource
    # One page (+data+, +has_more+) of PlinthGenerated::RequestLog. Filters: +status+ (of the answer, e.g. 409),
    # +method+ ("GET", "HEAD", "POST" or "DELETE"), +created+ ({ gte: Time.now - 3600 }, as for accounts).
    def list_page(status: nil, method: nil, created: nil, limit: nil, starting_after: nil, ending_before: nil)
      opts = query(status: status, method: method, created: created, limit: limit,
                   starting_after: starting_after, ending_before: ending_before)
      @client.call { @api.list_requests_with_http_info(opts) }
    end

    # Every recorded request, newest first: a lazy Enumerator fetching pages of +limit+, the filters on each.
    def list(status: nil, method: nil, created: nil, limit: nil)
      paginate(limit) { |**page| list_page(status: status, method: method, created: created, **page) }
    end

    # One request, by the Request-Id its answer carried (req_…): its route, status, source and the body it sent.
    def retrieve(id)
      @client.call { @api.retrieve_request_with_http_info(id) }
    end
  end
end
