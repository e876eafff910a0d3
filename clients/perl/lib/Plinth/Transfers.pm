package Plinth::Transfers;

# Fintech transfers between two accounts of the organisation: posted at once, or pending (money held on the sender)
# until posted, voided or expired.

use strict;
use warnings;
use parent 'Plinth::Resource';
use Carp ();

sub api_class { 'Plinth::Generated::FintechTransfersApi' }

# create({ from_account_id => …, to_account_id => …, amount => 2500, currency => 'USD', metadata => { … } },
# idempotency_key => $k): posted at once. With pending => 1 (and expires_in_seconds, 60 to 2592000, default 7 days)
# the amount is only held: the sender's available_balance drops, nothing moves until ->post. One Idempotency-Key,
# reused by retries, so the money moves (or is held) once.
sub create {
    my ($self, $params, %opts) = @_;
    my $body = $self->_body('CreateTransferRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->create_transfer(create_transfer_request => $body) });
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_transfer(id => $id) });
}

# update($id, { metadata => { order => 'A-2', old => '' } }) or update($id, clear_metadata => 1): as for accounts.
sub update {
    my ($self, $id, @rest) = @_;
    my ($params, %opts) = $self->_body_and_opts(@rest);
    my $metadata = $self->_metadata_change($params->{metadata}, delete $opts{clear_metadata});
    my $body = $self->_body('UpdateTransferRequest', { %$params, metadata => $metadata });
    return $self->_call(\%opts, sub { $self->{api}->update_transfer(id => $id, update_transfer_request => $body) });
}

# post($id) or post($id, { amount => 2500 }): moves a pending transfer's money, all of it or that much (the rest
# returns to the sender's available balance); the transfer, posted, with posted_amount. 409 transfer_not_pending or
# transfer_expired otherwise.
sub post {
    my ($self, $id, @rest) = @_;
    my ($params, %opts) = $self->_body_and_opts(@rest);
    my @unknown = sort grep { $_ ne 'idempotency_key' } keys %opts;    # post($id, amount => 1) would post it all
    Carp::croak("post: unknown option(s) @unknown; the body is a hashref: post(\$id, { amount => … })") if @unknown;
    my $body = $self->_body('PostTransferRequest', $params);
    return $self->_call(\%opts, sub { $self->{api}->post_transfer(id => $id, post_transfer_request => $body) });
}

# void($id): releases a pending transfer's hold, moving nothing; the transfer, voided.
sub void {
    my ($self, $id, %opts) = @_;
    return $self->_call(\%opts, sub { $self->{api}->void_transfer(id => $id) });
}

# reverse($id) or reverse($id, { amount => 1000, description => 'refund', metadata => { … } }, idempotency_key => $k):
# corrects a posted transfer by moving money back (docs/api.md#correcting-a-transfer), that much or all that remains
# unreversed. The reversal (trr_…); the transfer's amount_reversed grows, reversed is true once all of it is back.
# 409 transfer_not_reversible for a transfer not posted or fully reversed. One Idempotency-Key, reused by retries.
sub reverse {
    my ($self, $id, @rest) = @_;
    my ($params, %opts) = $self->_body_and_opts(@rest);
    my @unknown = sort grep { $_ ne 'idempotency_key' } keys %opts;    # reverse($id, amount => 1) would reverse it all
    Carp::croak("reverse: unknown option(s) @unknown; the body is a hashref: reverse(\$id, { amount => … })")
      if @unknown;
    my $body = $self->_body('CreateTransferReversalRequest', $params);
    return $self->_call(\%opts,
        sub { $self->{api}->create_transfer_reversal(id => $id, create_transfer_reversal_request => $body) });
}

# One page of a transfer's reversals, newest first: list_reversals_page($id, limit => 10, starting_after => 'trr_…').
sub list_reversals_page {
    my ($self, $id, %params) = @_;
    return $self->_call({}, sub { $self->{api}->list_transfer_reversals(id => $id, %params) });
}

# Every reversal of a transfer, newest first: list_reversals($id, limit => 100), a Plinth::ListIterator.
sub list_reversals {
    my ($self, $id, %params) = @_;
    return $self->_iterate(sub { $self->list_reversals_page($id, %{ $_[0] }) }, %params);
}

# retrieve_reversal($id, $reversal_id): one reversal of that transfer (404 for a reversal of another).
sub retrieve_reversal {
    my ($self, $id, $reversal_id) = @_;
    return $self->_call({}, sub { $self->{api}->retrieve_transfer_reversal(id => $id, reversal_id => $reversal_id) });
}

# One page, newest first: list_page(account_id => 'acct_…', status => 'pending', limit => 10). Filters: account_id
# (from or to that account), status (pending, posted, voided, expired), created and metadata as for accounts.
sub list_page {
    my ($self, %params) = @_;
    %params = $self->_filters(%params);
    return $self->_call({}, sub { $self->{api}->list_transfers(%params) });
}

# Every transfer, newest first: list(account_id => 'acct_…', limit => 100), a Plinth::ListIterator.
sub list {
    my ($self, %params) = @_;
    return $self->_iterate(sub { $self->list_page(%{ $_[0] }) }, %params);
}

1;
