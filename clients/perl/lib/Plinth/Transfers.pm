package Plinth::Transfers;

# Fintech transfers between two accounts of the organisation.

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::FintechTransfersApi' }

# create({ from_account_id => …, to_account_id => …, amount => 2500, currency => 'USD' }, idempotency_key => $k):
# synchronous, the posted transfer. One Idempotency-Key, reused by retries, so the money moves once.
sub create {
    my ($self, $params, %opts) = @_;
    my $body = $self->_body('CreateTransferRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->create_transfer(create_transfer_request => $body) });
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_transfer(id => $id) });
}

# One page, newest first: list_page(account_id => 'acct_…', limit => 10) keeps the transfers from or to that account.
sub list_page {
    my ($self, %params) = @_;
    return $self->_call({}, sub { $self->{api}->list_transfers(%params) });
}

# Every transfer, newest first: list(account_id => 'acct_…', limit => 100), a Plinth::ListIterator.
sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

1;
