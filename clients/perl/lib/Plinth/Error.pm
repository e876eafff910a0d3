package Plinth::Error;

# The one error the Plinth client dies with for every problem the server answers (RFC 9457). code is an open
# string: compare it with the codes you handle and treat the others by status.
#
#   eval { $plinth->accounts->retrieve($id) };
#   if (my $e = Plinth::Error->caught) { warn $e->status, ' ', $e->code, ' ', $e->request_id }

use strict;
use warnings;
use JSON ();
use Scalar::Util qw(blessed);
use overload '""' => \&message, bool => sub { 1 }, fallback => 1;

sub from_response {
    my ($class, $resp, $retries) = @_;
    my $body = $resp->decoded_content // '';
    # Decoded loosely: whatever the server adds (fields, codes) must not stop the error from surfacing.
    my $p = eval { JSON::decode_json($body) };
    $p = {} unless ref $p eq 'HASH';
    return bless {
        status     => $resp->code,
        code       => $p->{code} // '',
        param      => $p->{param},
        errors     => ref $p->{errors} eq 'ARRAY' ? $p->{errors} : [],
        request_id => $p->{request_id} // scalar $resp->header('Request-Id'),
        type       => $p->{type},
        title      => $p->{title},
        detail     => $p->{detail} // ($p->{code} ? undef : $body),
        body       => $body,
        retries    => $retries // 0,
        headers    => $resp->headers,
    }, $class;
}

# The Plinth::Error in $@ (or in the argument), if that is what it is.
sub caught {
    my ($class, $error) = @_;
    $error = $@ unless @_ > 1;
    return blessed $error && $error->isa($class) ? $error : undef;
}

sub status     { $_[0]{status} }
sub code       { $_[0]{code} }
sub param      { $_[0]{param} }
sub errors     { $_[0]{errors} }       # arrayref of { code, param, detail }
sub request_id { $_[0]{request_id} }
sub type       { $_[0]{type} }
sub title      { $_[0]{title} }
sub detail     { $_[0]{detail} }
sub body       { $_[0]{body} }         # the raw response body
sub retries    { $_[0]{retries} }
sub headers    { $_[0]{headers} }

sub message {
    my ($self) = @_;
    my $m = "plinth: $self->{status} $self->{code}";
    $m .= ": $self->{detail}" if defined $self->{detail} && length $self->{detail};
    $m .= " (param $self->{param})" if defined $self->{param};
    $m .= " [$self->{request_id}]" if defined $self->{request_id};
    return $m;
}

1;
