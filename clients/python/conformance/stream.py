"""Step 25 of the conformance scenario (clients/README.md): the live event stream through the rewriting proxy, which
splits each event's data over two lines, adds a comment and a retry field, and loses the connection after every
event (ended cleanly, then cut). The iterator yields the last three listed events once each, in order, then a live
one; a type filter holds; closing it stops it; a revoked key's stream raises PlinthError, 401."""
import itertools

from plinth import Plinth, PlinthError

from every_resource import ok


def run(plinth, key, proxy_url):
    proxied = Plinth(api_key=key, base_url=proxy_url)
    listed = plinth.events.list_page(limit=3).data
    assert len(listed) == 3, len(listed)
    newest = listed[0].sequence
    stream = proxied.events.stream(after=newest - 3)
    got = [next(stream) for _ in range(3)]
    assert [(e.id, e.sequence) for e in got] == [(e.id, e.sequence) for e in reversed(listed)], got
    live = plinth.accounts.create(type="business", country="US")
    event = next(stream)
    assert (event.sequence, event.type, event.data.object["id"]) == (newest + 1, "fintech.account.created", live.id), event
    stream.close()

    typed = list(itertools.islice(proxied.events.stream(type="fintech.account.created", after=0), 3))
    assert [e.type for e in typed] == ["fintech.account.created"] * 3, typed
    assert typed[0].sequence < typed[1].sequence < typed[2].sequence, [e.sequence for e in typed]

    doomed = plinth.api_keys.create()
    plinth.api_keys.revoke(doomed.id)
    try:
        next(Plinth(api_key=doomed.key, base_url=proxy_url).events.stream())
    except PlinthError as error:
        assert error.status == 401, error
    else:
        raise AssertionError("a revoked key's stream yielded an event")
    ok("25 the event stream resumes across lost connections with no gap and no repeat, live and filtered by type")
