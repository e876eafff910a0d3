package Plinth::Sandbox;

# Sandbox simulations (sandbox keys only): money in from, and out to, nowhere, and time passing, for testing.

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::FintechTransactionsApi' }

# deposit($account_id, { amount => 10000, description => … }): the credit transaction.
sub deposit {
    my ($self, $account_id, $params, %opts) = @_;
    my $body = $self->_body('SimulateDepositRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->simulate_deposit(id => $account_id, simulate_deposit_request => $body) });
}

# withdraw($account_id, { amount => 500, description => … }): the debit transaction (its amount negative).
sub withdraw {
    my ($self, $account_id, $params, %opts) = @_;
    my $body = $self->_body('SimulateWithdrawalRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->simulate_withdrawal(id => $account_id, simulate_withdrawal_request => $body) });
}

# expire_transfer($id): expires a pending transfer now, as if its expires_at had passed; the transfer, expired.
sub expire_transfer {
    my ($self, $id, %opts) = @_;
    return $self->_call(\%opts, sub { $self->{api}->simulate_transfer_expiry(id => $id) });
}

1;
