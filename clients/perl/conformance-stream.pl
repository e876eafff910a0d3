# Step 25 of the clients conformance scenario (clients/README.md), loaded by conformance.pl, whose check and ok_call
# it uses: the live event stream through the rewriting proxy, which splits each event's data over two lines, adds a
# comment and a retry field, and loses the connection after every event (ended cleanly, then cut). The stream gives
# the last three listed events once each, in order, then a live one; a type filter holds; stop ends it; a revoked
# key's stream dies with a Plinth::Error, 401.
use strict;
use warnings;

sub event_stream {
    my ($plinth, $key, $proxy_url) = @_;
    my $proxied = Plinth->new(api_key => $key, base_url => $proxy_url);
    my @listed = @{ ok_call(sub { $plinth->events->list_page(limit => 3) })->data };
    check(@listed == 3, scalar(@listed) . ' events listed');
    my $newest = $listed[0]->sequence;
    my (@got, $live);
    my $stream = $proxied->events->stream(after => $newest - 3);
    ok_call(sub {
        $stream->each(sub {
            my ($event) = @_;
            push @got, $event;
            $live = $plinth->accounts->create({ type => 'business', country => 'US' })->id if @got == 3;
            $stream->stop if @got == 4;
        });
    });
    my $pairs = sub { join ' ', map { $_->id . '@' . $_->sequence } @_ };
    check($pairs->(@got[0 .. 2]) eq $pairs->(reverse @listed),
        'streamed ' . $pairs->(@got[0 .. 2]) . ', listed ' . $pairs->(reverse @listed));
    my $last = $got[3];
    check($last->sequence == $newest + 1 && $last->type eq 'fintech.account.created' && $last->data->object->{id} eq $live,
        'live event ' . $last->sequence . ' ' . $last->type . ', want ' . ($newest + 1) . " for $live");
    check($stream->last_sequence == $newest + 1, 'last_sequence ' . $stream->last_sequence);

    my @sequences;
    my $typed = $proxied->events->stream(type => 'fintech.account.created', after => 0);
    ok_call(sub {
        $typed->each(sub {
            my ($event) = @_;
            check($event->type eq 'fintech.account.created', 'typed stream yielded ' . $event->type);
            check(!@sequences || $event->sequence > $sequences[-1], "sequences @sequences then " . $event->sequence);
            push @sequences, $event->sequence;
            $typed->stop if @sequences == 3;
        });
    });
    check(@sequences == 3, "typed stream: @sequences");

    my $doomed = ok_call(sub { $plinth->api_keys->create({}) });
    ok_call(sub { $plinth->api_keys->revoke($doomed->id) });
    my $revoked = Plinth->new(api_key => $doomed->key, base_url => $proxy_url);
    my $result = eval { $revoked->events->stream->each(sub { }); 1 };
    my $e = Plinth::Error->caught($@);
    check(!$result && $e && $e->status == 401, "a revoked key's stream: " . ($e ? $e->status . ' ' . $e->code : $@));
}

1;
