package Plinth::UserAgent;

# The LWP::UserAgent every request of the Plinth client goes through, generated or raw. It gives each POST one
# Idempotency-Key (the caller's, or a new UUID v4) kept for every attempt, and retries connection errors,
# 409 idempotency_request_in_progress, 429 and 5xx with exponential backoff and jitter, honouring Retry-After.
# The timeout (LWP's, per attempt) defaults to 30 s.

use strict;
use warnings;
use parent 'LWP::UserAgent';
use HTTP::Date ();
use JSON ();
use Time::HiRes ();

sub new {
    my ($class, %args) = @_;
    my %policy = map { $_ => delete $args{$_} } qw(max_retries min_backoff max_backoff max_retry_after);
    my $self = $class->SUPER::new(timeout => 30, %args);
    $self->{plinth_policy} = {
        max_retries     => $policy{max_retries} // 3,
        min_backoff     => $policy{min_backoff} // 0.5,
        max_backoff     => $policy{max_backoff} // 8,
        max_retry_after => $policy{max_retry_after} // 60,
    };
    return $self;
}

sub request {
    my ($self, $req, @rest) = @_;
    my $call = do { no warnings 'once'; $Plinth::CALL } // {};
    my $policy = $self->{plinth_policy};
    if ($req->method eq 'POST' && !$call->{no_idempotency_key} && !defined $req->header('Idempotency-Key')) {
        $req->header('Idempotency-Key' => $call->{idempotency_key} // uuid4());
    }
    # The generated code labels every request application/json, even a POST with no body (revoke); the server reads
    # that as a malformed JSON body. A request without a body gets no Content-Type.
    $req->remove_header('Content-Type') if !length($req->content // '');
    my $attempt = 0;
    while (1) {
        my $resp = $self->SUPER::request($req->clone, @rest);
        my $wait = $attempt < $policy->{max_retries} ? $self->_retry_wait($resp, $attempt) : undef;
        if (!defined $wait || $wait > $policy->{max_retry_after}) {
            $call->{response} = $resp;
            $call->{retries} = $attempt;
            return $resp;
        }
        Time::HiRes::sleep($wait);
        $attempt++;
    }
}

# Seconds to wait before another attempt, or undef when this response is final.
sub _retry_wait {
    my ($self, $resp, $attempt) = @_;
    my $code = $resp->code;
    # LWP reports a connection error or a timeout as its own 500 response, marked by this header.
    my $connection_error = ($resp->header('Client-Warning') // '') eq 'Internal response';
    my $retry = $connection_error || $code == 429 || $code >= 500;
    if (!$retry && $code == 409) {
        my $p = eval { JSON::decode_json($resp->decoded_content) };
        $retry = ref $p eq 'HASH' && ($p->{code} // '') eq 'idempotency_request_in_progress';
    }
    return undef unless $retry;
    my $after = $connection_error ? undef : $resp->header('Retry-After');
    if (defined $after) {
        $after =~ s/^\s+|\s+$//g;
        return $after + rand(0.1) if $after =~ /^\d+$/;
        my $when = HTTP::Date::str2time($after);
        return ($when && $when > time ? $when - time : 0) + rand(0.1) if defined $when;
    }
    my $ceiling = $self->{plinth_policy}{min_backoff} * 2**$attempt;
    $ceiling = $self->{plinth_policy}{max_backoff} if $ceiling > $self->{plinth_policy}{max_backoff};
    return $ceiling / 2 + rand($ceiling / 2);
}

# A random (version 4) UUID, from the kernel's randomness where there is one.
sub uuid4 {
    my $bytes = '';
    if (open my $fh, '<:raw', '/dev/urandom') {
        read $fh, $bytes, 16;
        close $fh;
    }
    $bytes = join '', map { chr int rand 256 } 1 .. 16 if length $bytes != 16;
    my @b = unpack 'C16', $bytes;
    $b[6] = ($b[6] & 0x0f) | 0x40;
    $b[8] = ($b[8] & 0x3f) | 0x80;
    return sprintf '%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x', @b;
}

1;
