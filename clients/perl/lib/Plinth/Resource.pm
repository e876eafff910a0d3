package Plinth::Resource;

# What every resource object shares: the client and the generated API class it wraps (api_class). Request bodies
# are hashrefs with the API's field names; a field given as undef is sent as JSON null (clearing a nullable field),
# a field left out is not sent, and a name the API does not have dies before anything is sent. POSTs take
# idempotency_key => $k after the body to choose the key (otherwise the client makes one per call, reused by its
# retries). Lists: list(%filters, limit => $n) returns a Plinth::ListIterator over every page; list_page(%params)
# returns one page (->data, ->has_more).

use strict;
use warnings;
use Carp qw(croak);
use POSIX ();
use Scalar::Util qw(blessed);
use Plinth::ListIterator;

sub new {
    my ($class, $plinth) = @_;
    my $api_class = $class->api_class;
    (my $file = "$api_class.pm") =~ s{::}{/}g;
    require $file;
    return bless { plinth => $plinth, api => $api_class->new($plinth->api_client) }, $class;
}

# The generated API object, for what the layer does not wrap.
sub api { $_[0]{api} }

sub _call {
    my ($self, $opts, $code) = @_;
    return $self->{plinth}->_call({ idempotency_key => $opts->{idempotency_key}, decode => $opts->{decode} }, $code);
}

# (\%body, %opts) or (%opts): the body is optional where the operation's is.
sub _body_and_opts {
    my $self = shift;
    my $body = ref $_[0] eq 'HASH' ? shift : {};
    return ($body, @_);
}

# The request body for the generated model $model from %$fields.
sub _body {
    my ($self, $model, $fields) = @_;
    my $class = "Plinth::Generated::Object::$model";
    (my $file = "$class.pm") =~ s{::}{/}g;
    require $file;
    my %known = map { $_ => 1 } values %{ $class->attribute_map };
    my @unknown = sort grep { !$known{$_} } keys %$fields;
    croak "unknown field(s) @unknown for $model; \$plinth->raw sends fields this client does not know yet" if @unknown;
    return Plinth::Body->new($class->new(%$fields), $fields);
}

# A list's filters, checked and made ready to send: created => { gte => '2026-11-24T00:00Z', lt => $datetime }, each
# bound a time string (the API's minute form, or RFC 3339 with an offset) or an object with an epoch (DateTime,
# Time::Piece: sent as RFC 3339 UTC, to the microsecond); metadata => { order => 'A-1' }. Both are hashrefs, which
# Plinth::ApiClient sends as created[gte]=… and metadata[order]=A-1. Other parameters pass unchanged.
sub _filters {
    my ($self, %params) = @_;
    if (defined(my $created = $params{created})) {
        croak 'created: a hashref of gte, gt, lte, lt' unless ref $created eq 'HASH';
        my @unknown = sort grep { !/^(gte|gt|lte|lt)$/ } keys %$created;
        croak "created: unknown bound(s) @unknown; use gte, gt, lte, lt" if @unknown;
        my @bounds = grep { defined $created->{$_} } keys %$created;
        $params{created} = { map { $_ => _time("created: $_", $created->{$_}) } @bounds };
    }
    if (defined(my $metadata = $params{metadata})) {
        croak 'metadata: a hashref of string keys and values' unless ref $metadata eq 'HASH';
        my @bad = sort grep { ref $metadata->{$_} || !defined $metadata->{$_} } keys %$metadata;
        croak "metadata: not a string: @bad" if @bad;
    }
    return %params;
}

# A moment as the API takes it: a string as given (the minute form '2026-11-24T09:30Z' names that minute; RFC 3339
# with an offset, an instant), or an object with an epoch, as RFC 3339 UTC to the microsecond.
sub _time {
    my ($what, $time) = @_;
    croak "$what: a time string or an object with an epoch, not undef" unless defined $time;
    return $time unless ref $time;
    croak "$what is neither a time string nor an object with an epoch" unless blessed $time && $time->can('epoch');
    my $micros = POSIX::floor(($time->can('hires_epoch') ? $time->hires_epoch : $time->epoch) * 1e6 + 0.5);
    my $seconds = POSIX::floor($micros / 1e6);
    return POSIX::strftime('%Y-%m-%dT%H:%M:%S', gmtime $seconds) . sprintf('.%06dZ', $micros - $seconds * 1e6);
}

# String pairs as the API takes them (a key's permissions: group => level). Which keys and values exist is the
# server's to judge (a 400 naming the field), so a group newer than this client still goes through.
sub _pairs {
    my ($self, $what, $pairs) = @_;
    croak "$what: a hashref of string keys and values, e.g. { accounts => 'read' }" unless ref $pairs eq 'HASH';
    my @bad = sort grep { ref $pairs->{$_} || !defined $pairs->{$_} } keys %$pairs;
    croak "$what: not a string: @bad" if @bad;
    return $pairs;
}

# The metadata of an update: the pairs to set (a value '' removes its key), or '' (the API's "remove every key")
# when clear_metadata is true; one of the two.
sub _metadata_change {
    my ($self, $metadata, $clear) = @_;
    croak 'give metadata or clear_metadata => 1, not both' if $clear && defined $metadata;
    return '' if $clear;
    croak "give metadata => { ... } (keys to set, or remove with '') or clear_metadata => 1" unless ref $metadata eq 'HASH';
    return $metadata;
}

sub _iterate {
    my ($self, $fetch, %params) = @_;
    return Plinth::ListIterator->new(params => \%params, fetch => $fetch);
}

package Plinth::Body;

# A generated request model plus the fields the caller set to undef: the generated serialiser drops undefined
# values, and an explicit JSON null (a webhook endpoint's description) must still be sent.
sub new { my ($class, $model, $fields) = @_; bless { model => $model, fields => $fields }, $class }

# The generated model's own to_hash round-trips through a character string that decode_json then refuses when
# a value is not ASCII ("Wide character"); its TO_JSON is the same hash without that round trip. The generated
# ApiClient then serialises the hash with JSON's to_json, into characters, which LWP refuses as a body ("content
# must be bytes") when one is wider than a byte: so text given as Perl characters (utf8-flagged) is handed over as
# its UTF-8 bytes, and the body goes out as UTF-8. Byte strings (already UTF-8) pass unchanged.
sub to_hash {
    my ($self) = @_;
    my $hash = $self->{model}->TO_JSON;
    for my $name (keys %{ $self->{fields} }) {
        $hash->{$name} = undef unless defined $self->{fields}{$name};
    }
    return _utf8_bytes($hash);
}

sub _utf8_bytes {
    my ($value) = @_;
    return { map { $_ => _utf8_bytes($value->{$_}) } keys %$value } if ref $value eq 'HASH';
    return [ map { _utf8_bytes($_) } @$value ] if ref $value eq 'ARRAY';
    return $value if ref $value || !defined $value || !utf8::is_utf8($value);
    my $bytes = $value;
    utf8::encode($bytes);
    return $bytes;
}

1;
