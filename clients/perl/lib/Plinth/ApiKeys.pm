package Plinth::ApiKeys;

# API keys of the caller's organisation.

use strict;
use warnings;
use parent 'Plinth::Resource';
use Carp ();

sub api_class { 'Plinth::Generated::APIKeysApi' }

# create() or create({ mode => 'sandbox', name => 'CI deploys', permissions => { accounts => 'read' } }): a
# Plinth::NewApiKey whose ->key is shown once. permissions (group => 'none', 'read' or 'write'; a group left out is
# none) makes a restricted rk_test_/rk_live_ key, whose ->permissions then has every group's level (undef for a full
# key); docs/api.md, "Create a key".
sub create {
    my ($self, @args) = @_;
    my ($params, %opts) = $self->_body_and_opts(@args);
    _check_permissions($params->{permissions}) if exists $params->{permissions};
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

# Permissions as the API takes them: a hashref of group => level, both strings. Which groups and levels exist is the
# server's to judge (a 400 naming permissions.<group>), so a group newer than this client still goes through.
sub _check_permissions {
    my ($permissions) = @_;
    Carp::croak "permissions: a hashref of group => level, e.g. { accounts => 'read' }; leave it out for a full key"
      unless ref $permissions eq 'HASH';
    my @bad = sort grep { ref $permissions->{$_} || !defined $permissions->{$_} } keys %$permissions;
    Carp::croak "permissions: not a level string: @bad" if @bad;
}

1;
