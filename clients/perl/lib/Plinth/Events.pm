package Plinth::Events;

# What happened in the organisation, newest first, and where each event was delivered.

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::EventsApi' }

# One page: list_page(type => 'fintech.account.created', limit => 10, starting_after => 'evt_…') → an EventList;
# created => { gte => … } bounds the time (as for accounts).
sub list_page {
    my ($self, %params) = @_;
    %params = $self->_filters(%params);
    return $self->_call({ decode => \&Plinth::EventDecoder::event_list }, sub { $self->{api}->list_events(%params) });
}

# Every event, newest first: list(type => …, limit => 100), a Plinth::ListIterator.
sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

# The live event stream: stream(type => …, after => <sequence>, on_gap => sub { my ($from, $to) = @_ }), a
# Plinth::EventStream (->each(sub { my ($event) = @_; … }), ->stop), resuming by itself. after => 0: every event
# still kept; without it, from the next one.
sub stream {
    my ($self, %params) = @_;
    require Plinth::EventStream;
    my $plinth = $self->{plinth};
    return Plinth::EventStream->new(%params, base_url => $plinth->{base_url}, api_key => $plinth->{api_key});
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({ decode => \&Plinth::EventDecoder::event }, sub { $self->{api}->retrieve_event(id => $id) });
}

# One page of the deliveries of an event (one per endpoint it was sent to): a WebhookDeliveryList.
sub list_deliveries_page {
    my ($self, $id, %params) = @_;
    return $self->_call({}, sub { $self->{api}->list_event_deliveries(id => $id, %params) });
}

# Every delivery of an event: list_deliveries($id, limit => 100), a Plinth::ListIterator.
sub list_deliveries {
    my ($self, $id, %params) = @_;
    return $self->_iterate(sub { $self->list_deliveries_page($id, %{ $_[0] }) }, %params);
}

1;
