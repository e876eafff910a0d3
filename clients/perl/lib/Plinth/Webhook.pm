package Plinth::Webhook;

# Verifies a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with Digest::SHA (Perl's own):
#
#   my $event = Plinth::Webhook->verify($secret, \%headers, $raw_body);   # dies with a Plinth::Webhook::Error
#   if (my $e = Plinth::Webhook::Error->caught) { warn $e->reason }
#
# $raw_body must be the exact bytes received, not a re-serialised parse of them. Returns the event as a
# Plinth::Generated::Object::Event.

use strict;
use warnings;
use Digest::SHA qw(hmac_sha256);
use Encode ();
use JSON ();
use MIME::Base64 qw(decode_base64 encode_base64);
use Plinth::EventDecoder;

our $DEFAULT_TOLERANCE = 300;

# Checks that webhook-timestamp is within tolerance seconds (default 300) of now and that one of the "v1,"
# signatures is the HMAC-SHA256, keyed with the decoded whsec_ secret, of "<id>.<timestamp>.<body>" (compared in
# time that does not depend on where they differ). Header names are matched without regard to case.
sub verify {
    my ($class, $secret, $headers, $raw_body, %opts) = @_;
    my $tolerance = $opts{tolerance} // $DEFAULT_TOLERANCE;
    my $now = $opts{now} // time;
    my %h = map { lc($_) => $headers->{$_} } keys %$headers;
    my ($id, $timestamp, $signatures) = @h{qw(webhook-id webhook-timestamp webhook-signature)};
    for ($id, $timestamp, $signatures) {
        _fail('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required')
            unless defined $_ && length $_;
    }
    _fail('timestamp_invalid', 'webhook-timestamp is not unix seconds') unless $timestamp =~ /\A[0-9]+\z/;
    _fail('timestamp_too_old', 'webhook-timestamp is too old') if $timestamp < $now - $tolerance;
    _fail('timestamp_too_new', 'webhook-timestamp is in the future') if $timestamp > $now + $tolerance;
    (my $encoded = $secret // '') =~ s/\Awhsec_//;
    _fail('secret_invalid', 'the secret is not whsec_ followed by base64')
        unless length $encoded && $encoded =~ m{\A[A-Za-z0-9+/]+={0,2}\z} && length($encoded) % 4 == 0;
    my $key = decode_base64($encoded);
    my $body = utf8::is_utf8($raw_body) ? Encode::encode_utf8($raw_body) : $raw_body;
    my $expected = encode_base64(hmac_sha256("$id.$timestamp.$body", $key), '');
    my $matched = 0;
    for my $candidate (split / /, $signatures) {
        my ($version, $signature) = split /,/, $candidate, 2;
        $matched = 1 if $version eq 'v1' && defined $signature && _equal($signature, $expected);
    }
    _fail('signature_mismatch', 'no webhook-signature matches the body') unless $matched;
    my $data = eval { JSON::decode_json($body) };
    _fail('body_invalid', "the signed body is not an event: $@") unless ref $data eq 'HASH';
    return Plinth::EventDecoder::event($data);
}

# Compares in time that depends only on the lengths.
sub _equal {
    my ($a, $b) = @_;
    return 0 unless length $a == length $b;
    my $diff = 0;
    $diff |= ord(substr $a, $_, 1) ^ ord(substr $b, $_, 1) for 0 .. length($a) - 1;
    return $diff == 0;
}

sub _fail { die Plinth::Webhook::Error->new(@_) }

package Plinth::Webhook::Error;

# Why Plinth::Webhook->verify refused a delivery: reason is one of missing_headers, timestamp_invalid,
# timestamp_too_old, timestamp_too_new, secret_invalid, signature_mismatch, body_invalid.
use strict;
use warnings;
use Scalar::Util qw(blessed);
use overload '""' => sub { "plinth: webhook verification failed ($_[0]{reason}): $_[0]{message}\n" }, bool => sub { 1 }, fallback => 1;

sub new { my ($class, $reason, $message) = @_; return bless { reason => $reason, message => $message }, $class }
sub reason  { $_[0]{reason} }
sub message { $_[0]{message} }

# The error in $@ (or the argument) when it is one of these, else undef.
sub caught {
    my ($class, $e) = @_;
    $e = $@ if @_ < 2;
    return blessed($e) && $e->isa($class) ? $e : undef;
}

1;
