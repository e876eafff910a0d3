package Plinth::Transactions;

# An account's ledger lines.

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::FintechTransactionsApi' }

# One page of an account's transactions, newest first: a TransactionList; created => { gte => … } as for accounts.
sub list_page {
    my ($self, $account_id, %params) = @_;
    %params = $self->_filters(%params);
    return $self->_call({}, sub { $self->{api}->list_account_transactions(id => $account_id, %params) });
}

# Every transaction of an account, newest first: list($account_id, limit => 100), a Plinth::ListIterator.
sub list {
    my ($self, $account_id, %params) = @_;
    return $self->_iterate(sub { $self->list_page($account_id, %{ $_[0] }) }, %params);
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_transaction(id => $id) });
}

1;
