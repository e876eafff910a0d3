package Plinth::Response;

# What the HTTP response of a call said besides its body: $plinth->last_response.

use strict;
use warnings;

sub new {
    my ($class, $resp, $retries) = @_;
    return bless {
        status     => $resp ? $resp->code : undef,
        request_id => $resp ? scalar $resp->header('Request-Id') : undef,
        replayed   => ($resp && ($resp->header('Idempotent-Replayed') // '') eq 'true') ? 1 : 0,
        retries    => $retries,
        headers    => $resp ? $resp->headers : undef,
    }, $class;
}
sub status     { $_[0]{status} }
sub request_id { $_[0]{request_id} }    # req_…: quote it to support
sub replayed   { $_[0]{replayed} }      # Idempotent-Replayed: true
sub retries    { $_[0]{retries} }       # how many times the layer retried
sub headers    { $_[0]{headers} }       # an HTTP::Headers

1;
