package Plinth::Requests;

# The request log (GET /v1/requests): every authenticated request of this key's organisation and mode, newest first.
# An entry is written a few hundred milliseconds after its answer (the server writes the log in batches).

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::RequestsApi' }

# One page, newest first: a RequestLogList. Filters: status => 409 (of the answer), method => 'POST' (GET, HEAD,
# POST or DELETE), created => { gte => … } (as for accounts).
sub list_page {
    my ($self, %params) = @_;
    %params = $self->_filters(%params);
    return $self->_call({}, sub { $self->{api}->list_requests(%params) });
}

# Every recorded request, newest first: list(status => 409, limit => 100), a Plinth::ListIterator.
sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

# One request, by the Request-Id its answer carried (req_…): its route, status, source and the body it sent.
sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_request(id => $id) });
}

1;
