package Scripted;

# The scripted HTTP server the wire tests share (t/retries.t, t/ledger.t): a child process answering each request
# with the next scripted answer, reporting each Idempotency-Key through a pipe and what went on the wire (method,
# path and query as sent, body) through a file; and a client of it with short backoffs.

use strict;
use warnings;
use Exporter 'import';
use File::Temp ();
use IO::Socket::INET;
use JSON ();
use Plinth;

our @EXPORT = qw($ACCOUNT problem ok_response serve client);

our $ACCOUNT = '{"id":"acct_1","object":"fintech.account","type":"business","country":"US","status":"active",'
  . '"available_balance":{"amount":0,"currency":"USD"},"kyb":null,"livemode":false,"created_at":"2026-11-22T10:00Z"}';

sub problem {
    my ($status, $code, $retry_after) = @_;
    my $body = qq({"type":"/docs/errors#$code","title":"t","status":$status,"detail":"d","code":"$code","request_id":"req_X"});
    my $extra = defined $retry_after ? "Retry-After: $retry_after\r\n" : '';
    return "HTTP/1.1 $status X\r\nContent-Type: application/problem+json\r\nRequest-Id: req_X\r\n${extra}Content-Length: "
      . length($body) . "\r\nConnection: close\r\n\r\n$body";
}

sub ok_response {
    my ($body) = @_;
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nRequest-Id: req_OK\r\nContent-Length: " . length($body)
      . "\r\nConnection: close\r\n\r\n$body";
}

# Serves @answers in order (the last repeats) from a child; returns (base URL, sub returning the keys seen so far,
# its pid, sub returning [method, target, body] of each request so far).
sub serve {
    my @answers = @_;
    my $server = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 5, ReuseAddr => 1) or die $!;
    my $wire_log = File::Temp->new;
    pipe(my $read, my $write) or die $!;
    my $pid = fork // die $!;
    push our @servers, $pid if $pid;
    if (!$pid) {
        close $read;
        $write->autoflush(1);
        for (my $i = 0; my $conn = $server->accept; $i++) {
            my ($key, $length, $type) = ('-', 0, '');
            my ($method, $target) = split / /, scalar <$conn>;
            while (my $line = <$conn>) {
                $line =~ s/\r?\n$//;
                last if $line eq '';
                $key = $1 if $line =~ /^Idempotency-Key:\s*(.*)$/i;
                $type = $1 if $line =~ /^Content-Type:\s*(.*)$/i;
                $length = $1 if $line =~ /^Content-Length:\s*(\d+)/i;
            }
            my $body = '';
            read $conn, $body, $length if $length;
            open my $log, '>>', $wire_log->filename or die $!;
            print $log JSON::encode_json([ $method, $target, $body ]), "\n";
            close $log;
            $key .= " (Content-Type $type)" if $type && !$length;    # a body-less request must not claim JSON
            print $write "$key\n";
            print $conn $answers[$i < @answers ? $i : $#answers];
            close $conn;
        }
        exit 0;
    }
    close $write;
    my $seen = '';
    my $keys = sub {    # unbuffered reads: select() sees only what Perl has not already buffered
        my $rin = '';
        vec($rin, fileno($read), 1) = 1;
        while (select(my $rout = $rin, undef, undef, 0.1)) { sysread($read, $seen, 4096, length $seen) or last }
        return [ split /\n/, $seen ];
    };
    my $wire = sub {
        open my $log, '<', $wire_log->filename or die $!;
        return [ map { JSON::decode_json($_) } <$log> ];
    };
    return ('http://127.0.0.1:' . $server->sockport, $keys, $pid, $wire);
}

sub client { Plinth->new(api_key => 'sk_test_x', base_url => shift, min_backoff => 0.001, max_backoff => 0.005, @_) }

END { kill 'TERM', our @servers }    # a test that dies must not leave its scripted servers behind

1;
