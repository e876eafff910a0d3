# frozen_string_literal: true

# Step 25 of the clients conformance scenario (clients/README.md), loaded by conformance.rb, whose check and
# expect_error it uses: the live event stream through the rewriting proxy, which splits each event's data over two
# lines, adds a comment and a retry field, and loses the connection after every event (ended cleanly, then cut). The
# stream yields the last three listed events once each, in order, then a live one; a type filter holds; breaking out
# stops it; a revoked key's stream raises Plinth::Error, 401.
def event_stream(plinth, key, proxy_url)
  proxied = Plinth::Client.new(api_key: key, base_url: proxy_url)
  listed = plinth.events.list_page(limit: 3).data
  check(listed.size == 3, "#{listed.size} events listed")
  newest = listed[0].sequence
  got = []
  live = nil
  proxied.events.stream(after: newest - 3) do |event|
    got << event
    live = plinth.accounts.create(type: "business", country: "US").id if got.size == 3
    break if got.size == 4
  end
  want = listed.reverse.map { |e| [e.id, e.sequence] }
  check(got[0, 3].map { |e| [e.id, e.sequence] } == want, "streamed #{got[0, 3].map(&:sequence)}, listed #{want}")
  last = got[3]
  object = last.data.object
  check(last.sequence == newest + 1 && last.type == "fintech.account.created" && object["id"] == live,
        "live event #{last.sequence} #{last.type}, want #{newest + 1} for #{live}")

  typed = proxied.events.stream(type: "fintech.account.created", after: 0).lazy.first(3)
  check(typed.map(&:type).uniq == ["fintech.account.created"], "typed stream yielded #{typed.map(&:type)}")
  sequences = typed.map(&:sequence)
  check(sequences.each_cons(2).all? { |a, b| b > a }, "sequences #{sequences}")

  doomed = plinth.api_keys.create
  plinth.api_keys.revoke(doomed.id)
  revoked = Plinth::Client.new(api_key: doomed.key, base_url: proxy_url)
  e = expect_error { revoked.events.stream.first }
  check(e.status == 401, "a revoked key's stream: #{e.status} #{e.code}")
end
