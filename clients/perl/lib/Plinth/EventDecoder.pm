package Plinth::EventDecoder;

# Events decoded by the layer: the generated decoder cannot take a free-form object (data.object: it looks for a
# model class named "object", and dies) nor a JSON null object (request), so the rest of an event is decoded by the
# generated code and those two are set after. Used for API answers (events.list/retrieve, webhook_endpoints.test)
# and for verified webhook deliveries (Plinth::Webhook).

use strict;
use warnings;
use Plinth::Generated::Object::Event;
use Plinth::Generated::Object::EventData;
use Plinth::Generated::Object::EventList;

# An Event from its decoded JSON (a hashref).
sub event {
    my ($data) = @_;
    my %rest = %$data;
    my $payload = delete $rest{data};
    my @nulls = grep { !defined $rest{$_} } keys %rest;
    delete @rest{@nulls};
    # from_hash walks the class's openapi_types with each(); when the generated decoder died halfway through that
    # walk (as it does on an event answer), the hash's iterator was left mid-way and the next walk would skip the
    # fields before it. keys() resets it.
    keys %{ Plinth::Generated::Object::Event->openapi_types };
    my $event = Plinth::Generated::Object::Event->new->from_hash(\%rest);
    $event->{$_} = undef for @nulls;
    $event->{data} = Plinth::Generated::Object::EventData->new(object => ref $payload eq 'HASH' ? $payload->{object} : undef);
    return $event;
}

# An EventList (a page) from its decoded JSON.
sub event_list {
    my ($page) = @_;
    return Plinth::Generated::Object::EventList->new(
        object   => $page->{object},
        data     => [ map { event($_) } @{ $page->{data} // [] } ],
        has_more => $page->{has_more} ? 1 : 0,
    );
}

1;
