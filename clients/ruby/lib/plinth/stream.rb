# frozen_string_literal: true

require "net/http"

module Plinth
  # The live event stream (GET /v1/events/stream, Server-Sent Events; docs/api.md#the-live-event-stream) that
  # resumes by itself: plinth.events.stream. Hand-written transport on Net::HTTP (the generated client reads whole
  # bodies). Each event carries its +sequence+, gap-free per organisation and mode; after any disconnection (a
  # network failure, the server restarting or ending the stream) it reconnects with Last-Event-ID set to the last
  # sequence it saw, so every event comes once, in order. A refusal that waiting will not change (a revoked key: 401;
  # a bad parameter: 400) raises Plinth::Error; 429 and 5xx are waited out (Retry-After, else backoff).
  class EventStream
    include Enumerable

    FIRST_DELAY = 0.25
    MAX_DELAY = 8.0
    # The server writes a comment every 15 s: a connection silent for much longer than that is dead.
    READ_TIMEOUT = 45

    # The last sequence seen: where the stream would resume.
    attr_reader :last_sequence

    def initialize(base_url:, api_key:, type: nil, after: nil, on_gap: nil, open_timeout: 30)
      @uri = URI.parse("#{base_url.sub(%r{/+\z}, "")}/v1/events/stream")
      @uri.query = URI.encode_www_form(type: type) if type
      @api_key = api_key
      @last_sequence = after
      @on_gap = on_gap
      @open_timeout = open_timeout
      @first_delay = FIRST_DELAY
    end

    # Yields each event (a PlinthGenerated::Event) as it happens, for ever: +break+ out of the block to stop (the
    # connection ends with it). Without a block, an Enumerator (lazy-able: stream.lazy.select { … }.first(3)).
    def each(&block)
      return enum_for(:each) unless block

      delay = @first_delay
      loop do
        @opened = false
        wait = connect_once(&block)
        delay = @first_delay if @opened
        if wait
          sleep(wait)
        else
          sleep(delay)
          delay = [delay * 2, MAX_DELAY].min
        end
      end
    end

    private

    # One connection: yields its events (@opened once the server accepted it); returns the seconds the server asked
    # to wait, or nil for the backoff.
    def connect_once(&block)
      Net::HTTP.start(@uri.host, @uri.port, use_ssl: @uri.scheme == "https", open_timeout: @open_timeout,
                                            read_timeout: READ_TIMEOUT) do |http|
        request = Net::HTTP::Get.new(@uri)
        request["Accept"] = "text/event-stream"
        request["Authorization"] = "Bearer #{@api_key}" if @api_key
        request["Last-Event-ID"] = @last_sequence.to_s unless @last_sequence.nil?
        request["User-Agent"] = "plinth-ruby/#{VERSION}"
        http.request(request) do |response|
          status = response.code.to_i
          if status == 429 || status >= 500
            after = response["Retry-After"].to_s
            return after.match?(/\A\d{1,5}\z/) && after.to_i.positive? ? after.to_i : nil
          end
          unless status == 200
            raise Error.problem(status, response.read_body.to_s, response.to_hash, response["Request-Id"])
          end

          @opened = true
          read(response, &block)
          return nil
        end
      end
    rescue IOError, SystemCallError, Timeout::Error, Net::HTTPBadResponse
      nil # refused or dropped: reconnect from @last_sequence
    end

    # Parses Server-Sent Events from the body as it arrives: lines end with \n, \r\n or \r; a line starting with ":"
    # is a comment; several data lines join with \n; retry sets the reconnection delay.
    def read(response, &block)
      buffered = +""
      message = {}
      response.read_body do |chunk|
        buffered << chunk.b
        while (at = buffered.index(/\r\n|\r(?=[^\n])|\n/))
          line = buffered.slice!(0, at).force_encoding(Encoding::UTF_8)
          buffered.slice!(0, buffered.start_with?("\r\n") ? 2 : 1)
          message = field(line, message, &block)
        end
      end
    end

    def field(line, message, &block)
      return dispatch(message, &block) if line.empty?
      return message if line.start_with?(":")

      name, value = line.include?(":") ? line.split(":", 2) : [line, ""]
      value = value.delete_prefix(" ")
      case name
      when "id" then message[:id] = value unless value.include?("\0")
      when "event" then message[:event] = value
      when "data" then message[:data] = message.key?(:data) ? "#{message[:data]}\n#{value}" : value
      when "retry" then @first_delay = value.to_i / 1000.0 if value.match?(/\A\d{1,9}\z/)
      end
      message
    end

    def dispatch(message)
      @last_sequence = Integer(message[:id], 10) if message[:id]&.match?(/\A\d{1,18}\z/)
      return {} unless message.key?(:data)

      if message[:event] == "gap"
        gone = JSON.parse(message[:data])
        @on_gap&.call(gone["from"], gone["to"])
      else
        yield PlinthGenerated::Event.build_from_hash(JSON.parse(message[:data])) # data.object["id"], as from the list
      end
      {}
    end
  end

  class Events
    # The live event stream: every event (of +type+), after sequence +after+ (0: every one still kept; nil: from the
    # next one), as it happens, resuming by itself: a Plinth::EventStream. With a block, yields each event until you
    # +break+; without, returns the stream (an Enumerable: stream.each, stream.lazy, stream.first(3)). +on_gap+ is
    # called with (from, to) when the starting point is older than the server's retention.
    def stream(type: nil, after: nil, on_gap: nil, &block)
      config = @client.api_client.config
      stream = EventStream.new(base_url: config.base_url, api_key: config.access_token, type: type, after: after,
                               on_gap: on_gap)
      return stream unless block

      stream.each(&block)
    end
  end
end
