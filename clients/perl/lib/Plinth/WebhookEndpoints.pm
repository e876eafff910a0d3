package Plinth::WebhookEndpoints;

# Where events are sent, signed (Standard Webhooks; verify deliveries with Plinth::Webhook->verify).

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::WebhooksApi' }

# create({ url => …, enabled_events => ['*'], description => …, metadata => { … } }): a
# Plinth::WebhookEndpointWithSecret whose ->secret (whsec_…) is shown this once.
sub create {
    my ($self, $params, %opts) = @_;
    my $body = $self->_body('CreateWebhookEndpointRequest', $params);
    my $endpoint = $self->_call(\%opts, sub { $self->{api}->create_webhook_endpoint(create_webhook_endpoint_request => $body) });
    return Plinth::WebhookEndpointWithSecret->adopt($endpoint, $self->{plinth}->last_response->replayed);
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_webhook_endpoint(id => $id) });
}

sub list_page {
    my ($self, %params) = @_;
    return $self->_call({}, sub { $self->{api}->list_webhook_endpoints(%params) });
}

sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

# update($id, { url => …, enabled_events => […], description => undef, status => 'disabled', metadata => { … } }):
# any of them; description => undef clears it; metadata sets the keys given and removes those given '';
# update($id, { … }, clear_metadata => 1) removes every key.
sub update {
    my ($self, $id, @rest) = @_;
    my ($params, %opts) = $self->_body_and_opts(@rest);
    $params = { %$params, metadata => $self->_metadata_change($params->{metadata}, 1) } if delete $opts{clear_metadata};
    my $body = $self->_body('UpdateWebhookEndpointRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->update_webhook_endpoint(id => $id, update_webhook_endpoint_request => $body) });
}

# The endpoint and its deliveries are gone: ->deleted true.
sub delete {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->delete_webhook_endpoint(id => $id) });
}

# rotate_secret($id, expire_previous_in_seconds => 3600): a new secret (a Plinth::WebhookEndpointWithSecret); the
# previous one keeps signing beside it that long (the server's default: a day).
sub rotate_secret {
    my ($self, $id, %opts) = @_;
    my $expire = delete $opts{expire_previous_in_seconds};
    my $body = $self->_body('RotateWebhookEndpointSecretRequest', defined $expire ? { expire_previous_in_seconds => $expire } : {});
    my $endpoint = $self->_call(\%opts, sub { $self->{api}->rotate_webhook_endpoint_secret(id => $id, rotate_webhook_endpoint_secret_request => $body) });
    return Plinth::WebhookEndpointWithSecret->adopt($endpoint, $self->{plinth}->last_response->replayed);
}

# Sends a webhook_endpoint.test event to this endpoint only: the event.
sub test {
    my ($self, $id, %opts) = @_;
    return $self->_call({ %opts, decode => \&Plinth::EventDecoder::event }, sub { $self->{api}->test_webhook_endpoint(id => $id) });
}

# One page of the endpoint's deliveries: list_deliveries_page($id, status => 'failed', limit => 10).
sub list_deliveries_page {
    my ($self, $id, %params) = @_;
    return $self->_call({}, sub { $self->{api}->list_webhook_endpoint_deliveries(id => $id, %params) });
}

sub list_deliveries {
    my ($self, $id, %params) = @_;
    return $self->_iterate(sub { $self->list_deliveries_page($id, %{ $_[0] }) }, %params);
}

1;
