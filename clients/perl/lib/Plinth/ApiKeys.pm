package Plinth::ApiKeys;

# API keys of the caller's organisation.

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::APIKeysApi' }

# create() or create({ mode => 'sandbox', name => 'CI deploys' }): a Plinth::NewApiKey whose ->key is shown once.
sub create {
    my ($self, @args) = @_;
    my ($params, %opts) = $self->_body_and_opts(@args);
    my $body = $self->_body('CreateApiKeyRequest', $params);
    my $key = $self->_call(\%opts, sub { $self->{api}->create_api_key(create_api_key_request => $body) });
    return Plinth::NewApiKey->adopt($key, $self->{plinth}->last_response->replayed);
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_api_key(id => $id) });
}

sub list_page {
    my ($self, %params) = @_;
    return $self->_call({}, sub { $self->{api}->list_api_keys(%params) });
}

sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

# The key stops working at once: ->revoked_at set.
sub revoke {
    my ($self, $id, %opts) = @_;
    return $self->_call(\%opts, sub { $self->{api}->revoke_api_key(id => $id) });
}

1;
