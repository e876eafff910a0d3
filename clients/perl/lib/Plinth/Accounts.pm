package Plinth::Accounts;

# Fintech accounts: create, list, retrieve, metadata and nickname, the lifecycle (freeze, unfreeze, close), and the
# balances at a moment and statements (read through the generated transactions API, whose tag they carry).

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::FintechAccountsApi' }

# create({ type => 'business', country => 'US', kyb => { ein => ..., legal_name => ... }, nickname => 'Payroll',
#   metadata => { ... } }, idempotency_key => $k)
sub create {
    my ($self, $params, %opts) = @_;
    my %fields = %$params;
    $fields{kyb} = $self->_body('CreateAccountRequestKyb', $fields{kyb})->to_hash if ref $fields{kyb} eq 'HASH';
    my $body = $self->_body('CreateAccountRequest', \%fields);
    return $self->_call(\%opts, sub { $self->{api}->create_account(create_account_request => $body) });
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_account(id => $id) });
}

# update($id, { metadata => { customer => 'c-42', old => '' } }) sets keys and removes those given ''; other keys stay.
# update($id, clear_metadata => 1) removes every key. update($id, { nickname => 'Payroll' }) names the account,
# nickname => '' clears the name; metadata and nickname may go together. Allowed on a closed account.
sub update {
    my ($self, $id, @rest) = @_;
    my ($params, %opts) = $self->_body_and_opts(@rest);
    my %fields = %$params;
    my $clear = delete $opts{clear_metadata};
    if (!defined $fields{nickname} || defined $fields{metadata} || $clear) {
        $fields{metadata} = $self->_metadata_change($fields{metadata}, $clear);
    }
    my $body = $self->_body('UpdateAccountRequest', \%fields);
    return $self->_call(\%opts, sub { $self->{api}->update_account(id => $id, update_account_request => $body) });
}

# The balances as they stood at a moment: balances($id) now, balances($id, at => $time) then (inclusive; a time
# string or an object with an epoch). An AccountBalances: current_balance, available_balance (less what pending
# transfers held then), last_transaction_id.
sub balances {
    my ($self, $id, %params) = @_;
    $params{at} = Plinth::Resource::_time('at', $params{at}) if exists $params{at};
    return $self->_call({}, sub { $self->_money->retrieve_account_balances(id => $id, %params) });
}

# statement($id, from => $from, to => $to): the period [from, to), each a time string or an object with an epoch. An
# AccountStatement: opening_balance, closing_balance, credits and debits (count, amount); closing = opening +
# credits - debits.
sub statement {
    my ($self, $id, %params) = @_;
    my ($from, $to) = (Plinth::Resource::_time('from', $params{from}), Plinth::Resource::_time('to', $params{to}));
    return $self->_call({}, sub { $self->_money->retrieve_account_statement(id => $id, from => $from, to => $to) });
}

sub _money {
    my ($self) = @_;
    return $self->{money} //= do {
        require Plinth::Generated::FintechTransactionsApi;
        Plinth::Generated::FintechTransactionsApi->new($self->{plinth}->api_client);
    };
}

# One page: list_page(status => 'frozen', limit => 10, starting_after => 'acct_…') → an AccountList. Filters: status
# (active, frozen, closed), created => { gte => '2026-11-24T00:00Z', lt => $datetime }, metadata => { customer =>
# 'c-42' } (every pair must hold).
sub list_page {
    my ($self, %params) = @_;
    %params = $self->_filters(%params);
    return $self->_call({}, sub { $self->{api}->list_accounts(%params) });
}

# Every account, newest first: list(status => 'frozen', limit => 100), a Plinth::ListIterator.
sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

# freeze($id, { reason => 'compliance_review', note => '…' }): no money moves in or out until it is unfrozen.
sub freeze {
    my ($self, $id, $params, %opts) = @_;
    my $body = $self->_body('FreezeAccountRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->freeze_account(id => $id, freeze_account_request => $body) });
}

sub unfreeze {
    my ($self, $id, %opts) = @_;
    return $self->_call(\%opts, sub { $self->{api}->unfreeze_account(id => $id) });
}

# close($id) or close($id, { reason => 'customer_request', note => '…' }): final.
sub close {
    my ($self, $id, @rest) = @_;
    my ($params, %opts) = $self->_body_and_opts(@rest);
    my $body = $self->_body('CloseAccountRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->close_account(id => $id, close_account_request => $body) });
}

1;
