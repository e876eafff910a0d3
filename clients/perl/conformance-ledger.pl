# Step 23 of the clients conformance scenario (clients/README.md), loaded by conformance.pl, whose check, ok_call and
# expect_error it uses: reverse part of a transfer, read the balances at a moment before the reversal and now, a
# statement around both, and name an account (docs/api.md#correcting-a-transfer, #balances-over-time-and-statements).
use strict;
use warnings;
use DateTime;
use Time::HiRes ();

sub reversal_balances_statement_nickname {
    my ($plinth) = @_;
    my $payroll =
      ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US', nickname => 'Payroll' }) });
    check(($payroll->nickname // '') eq 'Payroll', 'nickname at create ' . ($payroll->nickname // 'undef'));
    my $a = $payroll->id;
    my $b = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }) })->id;
    ok_call(sub { $plinth->sandbox->deposit($a, { amount => 10000 }) });
    my $transfer = ok_call(sub {
        $plinth->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 3000, currency => 'USD' })
    });
    my $got = join ' ', $transfer->status, $transfer->amount_reversed, $transfer->reversed ? 'true' : 'false';
    check($got eq 'posted 0 false', "transfer $got");
    # An instant between the transfer and the reversal (the API takes RFC 3339 with seconds); the pauses keep each
    # movement's millisecond on its own side of it.
    Time::HiRes::sleep(0.01);
    my $before = DateTime->from_epoch(epoch => Time::HiRes::time());
    Time::HiRes::sleep(0.01);
    my $reversal = ok_call(sub {
        $plinth->transfers->reverse($transfer->id,
            { amount => 1000, description => 'refund', metadata => { case => 'R-1' } })
    });
    check($reversal->id =~ /^trr_/ && $reversal->transfer_id eq $transfer->id, 'reversal ' . $reversal->id);
    $got = join ' ', $reversal->amount, $reversal->currency, JSON->new->canonical->encode($reversal->metadata);
    check($got eq '1000 USD {"case":"R-1"}', "reversal $got");
    my $after = ok_call(sub { $plinth->transfers->retrieve($transfer->id) });
    check($after->amount_reversed == 1000 && !$after->reversed,
        'after: amount_reversed ' . $after->amount_reversed);
    my $reversals = ok_call(sub { [ $plinth->transfers->list_reversals($transfer->id, limit => 1)->all ] });
    my @listed = map { $_->id } @$reversals;
    check("@listed" eq $reversal->id, "reversals listed @listed");
    check(ok_call(sub { $plinth->transfers->retrieve_reversal($transfer->id, $reversal->id) })->amount == 1000,
        'reversal retrieved');
    my $e =
      expect_error(400, 'parameter_invalid', sub { $plinth->transfers->reverse($transfer->id, { amount => 2001 }) });
    check(($e->param // '') eq 'amount', 'reverse 2001 of what remains, 2000: param ' . ($e->param // 'undef'));

    my $past = ok_call(sub { $plinth->accounts->balances($b, at => $before) });
    $got = join ' ', $past->current_balance->amount, $past->available_balance->amount;
    check($got eq '3000 3000', "balances before the reversal $got");
    my $now = ok_call(sub { $plinth->accounts->balances($b) });
    check($now->current_balance->amount == 2000, 'balances now ' . $now->current_balance->amount);
    Time::HiRes::sleep(0.01);
    my ($y, $mo, $d, $h, $mi) = $transfer->created_at =~ /^(\d+)-(\d+)-(\d+)T(\d+):(\d+)Z$/;
    my $from = DateTime->new(year => $y, month => $mo, day => $d, hour => $h, minute => $mi, time_zone => 'UTC')
      ->subtract(minutes => 1)->strftime('%Y-%m-%dT%H:%MZ');
    my $to = DateTime->from_epoch(epoch => Time::HiRes::time());
    my $s = ok_call(sub { $plinth->accounts->statement($b, from => $from, to => $to) });
    $got = join ' ', $s->opening_balance, $s->credits->count, $s->credits->amount, $s->debits->count, $s->debits->amount,
      $s->closing_balance;
    check($got eq '0 1 3000 1 1000 2000', "statement (opening, credits, debits, closing) $got");
    check($s->closing_balance == $s->opening_balance + $s->credits->amount - $s->debits->amount,
        'statement does not add up');
    check($s->closing_balance == $now->current_balance->amount, 'closing ' . $s->closing_balance);
    my $earlier = ok_call(sub { $plinth->accounts->statement($b, from => $from, to => $before) });
    check($earlier->closing_balance == 3000, 'closing before the reversal ' . $earlier->closing_balance);

    my $named = ok_call(sub { $plinth->accounts->update($b, { nickname => 'Operations' }) });
    check(($named->nickname // '') eq 'Operations', 'nickname set ' . ($named->nickname // 'undef'));
    check((ok_call(sub { $plinth->accounts->retrieve($b) })->nickname // '') eq 'Operations', 'nickname read back');
    my $unnamed = ok_call(sub { $plinth->accounts->update($b, { nickname => '' }) });
    check(!defined $unnamed->nickname, "nickname not cleared by ''");
}

1;
