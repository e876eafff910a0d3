# Step 24 of the clients conformance scenario (clients/README.md), loaded by conformance.pl, whose check, ok_call and
# expect_error it uses: a read-only key reads an account and its balances but cannot move money (docs/api.md,
# "Create a key"; a key may do only what its permissions allow, else 403 permission_denied).
use strict;
use warnings;

sub read_only_key {
    my ($plinth, $base, $from, $to) = @_;
    my $permissions = { accounts => 'read', transactions => 'read' };
    my $made = ok_call(sub { $plinth->api_keys->create({ name => 'read-only', permissions => $permissions }) });
    check($made->key =~ /^rk_test_/, 'key ' . substr($made->key, 0, 8) . '…');
    my $levels = $made->permissions->TO_JSON;
    my $got = join ' ', map { "$_=" . ($levels->{$_} // 'undef') } sort keys %$levels;
    check($got eq 'accounts=read api_keys=none events=none payments=none requests=none sandbox=none '
          . 'transactions=read transfers=none webhook_endpoints=none', "permissions $got");
    my $again = ok_call(sub { $plinth->api_keys->retrieve($made->id) });
    check(($again->permissions ? $again->permissions->accounts : 'undef') eq 'read', 'retrieved permissions');
    my $before = ok_call(sub { $plinth->accounts->balances($from) })->current_balance->amount;

    my $reader = Plinth->new(api_key => $made->key, base_url => $base);
    check(ok_call(sub { $reader->accounts->retrieve($from) })->id eq $from, 'read-only key retrieving the account');
    my $amount = ok_call(sub { $reader->accounts->balances($from) })->current_balance->amount;
    check($amount == $before, "read-only key reading the balances: $amount, not $before");
    expect_error(403, 'permission_denied', sub {
        $reader->transfers->create({ from_account_id => $from, to_account_id => $to, amount => 100, currency => 'USD' })
    });
    my $after = ok_call(sub { $plinth->accounts->balances($from) })->current_balance->amount;
    check($after == $before, "balance $before became $after after a refused transfer");
}

1;
