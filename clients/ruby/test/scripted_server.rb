# frozen_string_literal: true

# A scripted HTTP server for the wire tests (a few lines of TCPServer, nothing to install): it answers each request
# with the next scripted reply (an account by default) and records what was sent.
require "socket"

class ScriptedServer
  ACCOUNT = '{"id":"acct_01M81E6QGW6FY4EAZBPP8CJ63K","object":"fintech.account","type":"business","country":"US",' \
            '"status":"active","status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},' \
            '"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"metadata":{},"livemode":false,' \
            '"created_at":"2026-11-22T10:53Z"}'
  Reply = Struct.new(:status, :body, :headers, :delay, keyword_init: true)

  def self.ok
    Reply.new(status: 200, body: ACCOUNT, headers: { "Request-Id" => "req_OK" }, delay: 0)
  end

  def self.problem(status, code, headers = {})
    body = %({"type":"/docs/errors##{code}","title":"t","status":#{status},"detail":"d","code":"#{code}","request_id":"req_P#{status}"})
    Reply.new(status: status, body: body, headers: headers, delay: 0)
  end

  attr_reader :seen

  def initialize(*replies)
    @script = Queue.new
    replies.each { |r| @script << r }
    @seen = Queue.new
    @wire = Queue.new
    @server = TCPServer.new("127.0.0.1", 0)
    @thread = Thread.new { loop { handle(@server.accept) } }
  end

  def url
    "http://127.0.0.1:#{@server.addr[1]}"
  end

  def requests
    list = []
    list << @seen.pop until @seen.empty?
    list
  end

  # What was sent, in order: [method, path with its query as written on the wire, body].
  def wire
    list = []
    list << @wire.pop until @wire.empty?
    list
  end

  def close
    @thread.kill
    @server.close
  end

  private

  def handle(socket)
    method, target = socket.gets.to_s.split(" ")
    headers = {}
    while (line = socket.gets) && line != "\r\n"
      name, value = line.split(":", 2)
      headers[name.downcase] = value.strip
    end
    body = headers["content-length"] ? socket.read(headers["content-length"].to_i) : nil
    @seen << [method, headers["idempotency-key"]]
    @wire << [method, target, body]
    reply = @script.empty? ? self.class.ok : @script.pop
    sleep(reply.delay) if reply.delay.positive?
    type = reply.status == 200 ? "application/json" : "application/problem+json"
    extra = reply.headers.map { |k, v| "#{k}: #{v}\r\n" }.join
    socket.write("HTTP/1.1 #{reply.status} X\r\nContent-Type: #{type}\r\nContent-Length: #{reply.body.bytesize}\r\n" \
                 "Connection: close\r\n#{extra}\r\n#{reply.body}")
  rescue IOError, SystemCallError
    nil
  ensure
    socket&.close
  end
end
