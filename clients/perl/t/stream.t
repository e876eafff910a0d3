# The event stream against a scripted server (a forked child on a loopback socket): what a live Plinth does not send
# on demand, played here: \r\n and lone \r line ends, an event: gap, a 503, a connection lost halfway through an
# event (that event is not given, and the resume is from the one before); a 401 dies with Plinth::Error. The live
# scenario (step 25) covers the rest through the flaky proxy.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../generated/lib";
use File::Temp ();
use IO::Socket::INET;
use Test::More;
use Plinth;
use Plinth::Error;

sub event {
    my ($sequence) = @_;
    return "id: $sequence\nevent: fintech.account.created\ndata: {\"id\":\"evt_" . sprintf('%026d', $sequence)
      . "\",\"object\":\"event\",\ndata: \"type\":\"fintech.account.created\",\"sequence\":$sequence,"
      . "\"data\":{\"object\":{\"id\":\"acct_$sequence\"}},\"request\":null,\"livemode\":false,"
      . "\"created_at\":\"2026-11-26T10:00Z\"}\n\n";
}

my @children;
END { kill 'KILL', @children if @children }

# Answers each connection with the next [status, body] and closes it; returns (URL, sub giving "path last-event-id"
# of each request so far).
sub serve {
    my @script = @_;
    my $server = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 5, ReuseAddr => 1) or die $!;
    my $log = File::Temp->new;
    my $pid = fork // die $!;
    if (!$pid) {
        while (my $conn = $server->accept) {
            my (undef, $target) = split / /, scalar <$conn>;
            my $last = '-';
            while (my $line = <$conn>) {
                $line =~ s/\r?\n$//;
                last if $line eq '';
                $last = $1 if $line =~ /^Last-Event-ID:\s*(.*)$/i;
            }
            open my $fh, '>>', $log->filename or die $!;
            print $fh "$target $last\n";
            close $fh;
            my ($status, $body) = @{ shift(@script) // [200, ": idle\n\n"] };
            my $type = $status == 200 ? 'text/event-stream' : 'application/problem+json';
            print $conn "HTTP/1.1 $status X\r\nContent-Type: $type\r\nContent-Length: " . length($body)
              . "\r\nConnection: close\r\n\r\n$body";
            close $conn;
        }
        exit 0;
    }
    push @children, $pid;
    my $seen = sub { open my $fh, '<', $log->filename or return []; [ map { chomp; $_ } <$fh> ] };
    return ('http://127.0.0.1:' . $server->sockport, $seen, $log);
}

{
    my $ninth = event(9);
    my (@got, @gaps);
    my ($url, $seen, $log) = serve(
        [200, ": stream open\nid: 7\n\n"],
        [200, ": stream open\r\nretry: 5\r\nid: 7\r\n\r\n" . (event(8) =~ s/\n/\r\n/gr) . substr($ninth, 0, 40)],
        [503, '{}'],
        [200, "id: 8\r\rid: 11\nevent: gap\ndata: {\"from\":10,\"to\":11}\n\n" . event(12)],
    );
    my $stream = Plinth->new(api_key => 'sk_test_x', base_url => $url)->events->stream(
        type   => 'fintech.account.created',
        on_gap => sub { push @gaps, "@_" },
    );
    $stream->each(sub { push @got, $_[0]; $stream->stop if @got == 2 });
    is_deeply([ map { $_->sequence } @got ], [8, 12], 'each event once, in order, across line ends, a cut and a 503');
    is($got[1]->data->object->{id}, 'acct_12', 'data over two lines decodes');
    is_deeply(\@gaps, ['10 11'], 'the gap is reported');
    is($stream->last_sequence, 12, 'last_sequence');
    my $path = '/v1/events/stream?type=fintech.account.created';
    is_deeply($seen->(), ["$path -", "$path 7", "$path 8", "$path 8"], 'resumed by Last-Event-ID from the last complete event');
}

{
    my $problem = '{"type":"/docs/errors#api_key_invalid","title":"t","status":401,"code":"api_key_invalid"}';
    my ($url) = serve([401, $problem]);
    my $ok = eval { Plinth->new(api_key => 'sk_test_x', base_url => $url)->events->stream->each(sub { }); 1 };
    my $e = Plinth::Error->caught($@);
    ok(!$ok && $e && $e->status == 401 && $e->code eq 'api_key_invalid', 'a refused key dies with Plinth::Error 401');
}

done_testing;
