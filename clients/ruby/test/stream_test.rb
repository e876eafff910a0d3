# frozen_string_literal: true

# plinth.events.stream against a scripted server (a few lines of TCPServer): what a live Plinth does not send on
# demand, played here: \r\n and lone \r line ends, an event: gap, a 503, a connection lost halfway through an event
# (that event is not yielded, and the resume is from the one before); a 401 raises. The live scenario (step 25)
# covers the rest through the flaky proxy.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "plinth"
require "socket"
require "minitest/autorun"

class StreamTest < Minitest::Test
  def event(sequence)
    body = %({"id":"evt_#{sequence.to_s.rjust(26, "0")}","object":"event","type":"fintech.account.created",\n) +
           %(data: "sequence":#{sequence},"data":{"object":{"id":"acct_#{sequence}"}},"request":null,) +
           %("livemode":false,"created_at":"2026-11-26T10:00Z"})
    "id: #{sequence}\nevent: fintech.account.created\ndata: #{body}\n\n"
  end

  # Each connection gets the next [status, body] and is then closed; records each request's Last-Event-ID and path.
  def serve(*script)
    server = TCPServer.new("127.0.0.1", 0)
    seen = Queue.new
    thread = Thread.new do
      loop do
        socket = server.accept
        target = socket.gets.to_s.split(" ")[1]
        last = nil
        while (line = socket.gets) && line != "\r\n"
          name, value = line.split(":", 2)
          last = value.strip if name.casecmp?("last-event-id")
        end
        seen << [target, last]
        status, body = script.shift || [200, ": idle\n\n"]
        type = status == 200 ? "text/event-stream" : "application/problem+json"
        socket.write("HTTP/1.1 #{status} X\r\nContent-Type: #{type}\r\nContent-Length: #{body.bytesize}\r\n" \
                     "Connection: close\r\n\r\n#{body}")
        socket.close
      end
    end
    yield "http://127.0.0.1:#{server.addr[1]}", -> { Array.new(seen.size) { seen.pop } }
  ensure
    thread&.kill
    server&.close
  end

  def test_resumes_by_last_event_id_with_no_gap_or_repeat
    gaps = []
    serve([200, ": stream open\nid: 7\n\n"],
          [200, ": stream open\r\nretry: 5\r\nid: 7\r\n\r\n#{event(8).gsub("\n", "\r\n")}#{event(9)[0, 40]}"],
          [503, "{}"],
          [200, "id: 8\r\rid: 11\nevent: gap\ndata: {\"from\":10,\"to\":11}\n\n#{event(12)}"]) do |url, seen|
      plinth = Plinth::Client.new(api_key: "sk_test_x", base_url: url)
      got = plinth.events.stream(type: "fintech.account.created", on_gap: ->(from, to) { gaps << [from, to] })
                  .first(2)
      assert_equal [8, 12], got.map(&:sequence)
      assert_equal "acct_12", got[1].data.object["id"]
      assert_equal [[10, 11]], gaps
      requests = seen.call
      assert_equal [nil, "7", "8", "8"], requests.map(&:last)
      assert_equal "/v1/events/stream?type=fintech.account.created", requests[0][0]
    end
  end

  def test_a_refused_key_raises
    problem = '{"type":"/docs/errors#api_key_invalid","title":"t","status":401,"code":"api_key_invalid","request_id":"req_1"}'
    serve([401, problem]) do |url, _seen|
      e = assert_raises(Plinth::Error) { Plinth::Client.new(api_key: "sk_test_x", base_url: url).events.stream.first }
      assert_equal [401, "api_key_invalid"], [e.status, e.code]
    end
  end
end
