#!/usr/bin/env perl
# Reversals, balances at a moment, statements and nicknames as they go on the wire, against the scripted server: a
# reversal is a POST with its own Idempotency-Key and only the fields given; its list sends its cursor on every page;
# a DateTime is sent as RFC 3339 UTC; a nickname update sends no metadata, and '' clears.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/lib";
use Test::More;
use JSON ();
use URI::Escape qw(uri_unescape);
use Plinth;
use Scripted;

my $reversal = sub {
    '{"id":"trr_' . $_[0] . '","object":"fintech.transfer_reversal","transfer_id":"tr_1","amount":1000,'
      . '"currency":"USD","description":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}';
};
my $page = sub {
    my ($id, $more) = @_;
    '{"object":"list","data":[' . $reversal->($id) . '],"has_more":' . ($more ? 'true' : 'false') . '}';
};

{
    my ($url, $keys, $pid, $wire) = serve(map { ok_response($_) } $reversal->(1), $reversal->(2), $page->(2, 1),
        $page->(1, 0), $reversal->(1));
    my $plinth = client($url);
    my $r = $plinth->transfers->reverse('tr_1', { amount => 1000, metadata => { case => 'R-1' } });
    is_deeply([ $r->id, $r->transfer_id, $r->amount ], [ 'trr_1', 'tr_1', 1000 ], 'a reversal decoded');
    $plinth->transfers->reverse('tr_1', idempotency_key => 'mine-1');
    is(join(' ', map { $_->id } $plinth->transfers->list_reversals('tr_1', limit => 1)->all), 'trr_2 trr_1',
        'the reversals listed across pages');
    is($plinth->transfers->retrieve_reversal('tr_1', 'trr_1')->id, 'trr_1', 'one reversal retrieved');
    my $seen = $keys->();
    like($seen->[0], qr/^[0-9a-f-]{36}$/, 'a reversal gets an Idempotency-Key of its own');
    is_deeply([ @$seen[ 1 .. 4 ] ], [ 'mine-1', '-', '-', '-' ], "... or the caller's; reads get none");
    my $path = '/v1/fintech/transfers/tr_1/reversals';
    my @sent = map { [ @$_[ 0, 1 ], length $_->[2] ? JSON::decode_json($_->[2]) : '' ] } @{ $wire->() };
    is_deeply(\@sent, [ [ 'POST', $path, { amount => 1000, metadata => { case => 'R-1' } } ], [ 'POST', $path, {} ],
        [ 'GET', "$path?limit=1", '' ], [ 'GET', "$path?limit=1&starting_after=trr_2", '' ],
        [ 'GET', "$path/trr_1", '' ] ], '... on the wire');
    ok(!eval { $plinth->transfers->reverse('tr_1', amount => 1); 1 }, 'reverse($id, amount => 1) dies: a hashref body');
    kill 'TERM', $pid;
}

{
    require DateTime;
    my $balances = '{"object":"fintech.balances","account_id":"acct_a","at":"2026-11-22T10:53Z","current_balance":'
      . '{"amount":3000,"currency":"USD"},"available_balance":{"amount":2500,"currency":"USD"},'
      . '"last_transaction_id":null,"livemode":false}';
    my $statement = '{"object":"fintech.statement","account_id":"acct_a","currency":"USD","from":"2026-11-22T10:00Z",'
      . '"to":"2026-11-22T11:00Z","opening_balance":0,"closing_balance":2000,"credits":{"count":1,"amount":3000},'
      . '"debits":{"count":1,"amount":1000},"livemode":false}';
    my ($url, $keys, $pid, $wire) = serve(map { ok_response($_) } $balances, $balances, $statement, $statement);
    my $plinth = client($url);
    my $at = DateTime->new(year => 2026, month => 11, day => 22, hour => 16, minute => 23, second => 4,
        nanosecond => 500_000_000, time_zone => '+0530');
    my $then = $plinth->accounts->balances('acct_a', at => $at);
    is_deeply([ $then->current_balance->amount, $then->available_balance->amount, $then->last_transaction_id ],
        [ 3000, 2500, undef ], 'balances decoded, a null last_transaction_id undef');
    $plinth->accounts->balances('acct_a');
    my $s = $plinth->accounts->statement('acct_a', from => '2026-11-22T10:00Z',
        to => DateTime->new(year => 2026, month => 11, day => 22, hour => 11, time_zone => 'UTC'));
    is_deeply([ $s->opening_balance, $s->closing_balance, $s->credits->count, $s->credits->amount, $s->debits->count,
        $s->debits->amount ], [ 0, 2000, 1, 3000, 1, 1000 ], 'a statement decoded');
    $plinth->accounts->statement('acct_a', from => '2026-11-22T10:00:00+01:00', to => '2026-11-22T11:00Z');
    my $path = '/v1/fintech/accounts/acct_a';
    is_deeply([ map { [ $_->[0], uri_unescape($_->[1]) ] } @{ $wire->() } ], [
        [ 'GET', "$path/balances?at=2026-11-22T10:53:04.500000Z" ], [ 'GET', "$path/balances" ],
        [ 'GET', "$path/statement?from=2026-11-22T10:00Z&to=2026-11-22T11:00:00.000000Z" ],
        [ 'GET', "$path/statement?from=2026-11-22T10:00:00+01:00&to=2026-11-22T11:00Z" ],
    ], 'a DateTime sent as RFC 3339 UTC, a string as given');
    ok(!eval { $plinth->accounts->statement('acct_a', from => '2026-11-22T10:00Z'); 1 }, 'a statement without to dies');
    ok(!eval { $plinth->accounts->balances('acct_a', at => [1]); 1 }, 'balances at a non-time dies');
    is(scalar @{ $wire->() }, 4, '... before anything is sent');
    kill 'TERM', $pid;
}

{
    my $named = $ACCOUNT =~ s/"kyb":null/"kyb":null,"nickname":"Payroll"/r;
    my ($url, $keys, $pid, $wire) = serve(ok_response($named), map { ok_response($ACCOUNT) } 1 .. 3);
    my $plinth = client($url);
    is($plinth->accounts->create({ type => 'business', country => 'US', nickname => 'Payroll' })->nickname, 'Payroll',
        'a nickname decoded');
    $plinth->accounts->update('acct_a', { nickname => 'Payroll' });
    $plinth->accounts->update('acct_a', { nickname => 'Payroll', metadata => { team => 'ops' } });
    ok(!defined $plinth->accounts->update('acct_a', { nickname => '' })->nickname, 'no nickname: undef');
    is_deeply([ map { JSON::decode_json($_->[2]) } @{ $wire->() } ], [
        { type => 'business', country => 'US', nickname => 'Payroll' }, { nickname => 'Payroll' },
        { nickname => 'Payroll', metadata => { team => 'ops' } }, { nickname => '' },
    ], "a nickname sent alone or with metadata, '' to clear");
    ok(!eval { $plinth->accounts->update('acct_a', {}); 1 }, 'an update of nothing dies');
    kill 'TERM', $pid;
}

done_testing;
