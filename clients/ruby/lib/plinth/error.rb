# frozen_string_literal: true

module Plinth
  # The one error every Plinth call raises: an RFC 9457 problem from the server, or a transport failure after all
  # retries (status 0, code "connection_error"). +code+ is an open string: the server's list grows.
  class Error < StandardError
    ErrorDetail = Struct.new(:code, :param, :detail, keyword_init: true)

    attr_reader :status, :code, :param, :errors, :request_id, :type, :title, :detail, :headers, :raw_body

    def initialize(status:, code:, param: nil, errors: [], request_id: nil, type: nil, title: nil, detail: nil,
                   headers: {}, raw_body: nil)
      @status = status
      @code = code
      @param = param
      @errors = errors
      @request_id = request_id
      @type = type
      @title = title
      @detail = detail
      @headers = headers
      @raw_body = raw_body
      super("#{status} #{code}#{detail ? ": #{detail}" : ""}#{request_id ? " [#{request_id}]" : ""}")
    end

    # From a generated PlinthGenerated::ApiError (or any failure with a status, headers and a body).
    def self.from_api_error(e)
      return connection(e.message) if e.code.nil? || e.code.zero?

      headers = e.response_headers || {}
      header_request_id = headers.find { |k, _| k.to_s.casecmp?("request-id") }&.last
      problem(e.code, e.response_body, headers, header_request_id)
    end

    def self.problem(status, body, headers, header_request_id)
      p = begin
        body.nil? || body.empty? ? nil : JSON.parse(body)
      rescue JSON::ParserError
        nil
      end
      unless p.is_a?(Hash)
        return new(status: status, code: "unknown", detail: body, request_id: header_request_id,
                   headers: headers, raw_body: body)
      end

      errors = Array(p["errors"]).select { |d| d.is_a?(Hash) }.map do |d|
        ErrorDetail.new(code: d["code"], param: d["param"], detail: d["detail"])
      end
      new(status: status, code: p["code"] || "unknown", param: p["param"], errors: errors,
          request_id: p["request_id"] || header_request_id, type: p["type"], title: p["title"], detail: p["detail"],
          headers: headers, raw_body: body)
    end

    def self.connection(message)
      new(status: 0, code: "connection_error", title: "Connection error", detail: message)
    end
  end
end
