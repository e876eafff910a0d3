# Step 26 of the clients conformance scenario (clients/README.md), loaded by conformance.pl, whose check and ok_call
# it uses: money in and out over the rails on the sandbox clock. An inbound ACH credit of 100 to a new account number,
# an ACH payment of 60 out (held at once: available -60, current unchanged), the clock advanced to the next business
# day after settlement (settled), a rule that returns it R01 two days after settlement, the clock advanced again
# (returned, with a reversal of its transfer), and a statement that adds up. It runs last: it moves the
# organisation's clock days ahead.
use strict;
use warnings;
use DateTime;

# A DateTime of the clock's RFC 3339 now (2026-12-01T15:00:00.000Z).
sub _clock_time {
    my ($text) = @_;
    my ($y, $m, $d, $H, $M, $S) = $text =~ /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/ or fail("clock now $text");
    return DateTime->new(year => $y, month => $m, day => $d, hour => $H, minute => $M, second => $S, time_zone => 'UTC');
}

# 15:00 UTC on the first weekday after $now: after that day's 09:00 New York settlement, before its cut-off.
sub after_next_settlement {
    my $day = _clock_time($_[0])->add(days => 1);
    $day->add(days => 1) while $day->day_of_week >= 6;
    return $day->ymd . 'T15:00Z';
}

sub payments_on_the_clock {
    my ($plinth) = @_;
    my $account = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }) })->id;
    my $number = ok_call(sub { $plinth->account_numbers->create({ account_id => $account, name => 'Main' }) });
    check($number->account_number =~ /^[0-9]{12}$/ && !$number->replayed, 'number ' . $number->account_number_last4);
    check(!defined ok_call(sub { $plinth->account_numbers->retrieve($number->id) })->account_number,
        'the number shown again');
    my $balances = sub {
        my $a = ok_call(sub { $plinth->accounts->retrieve($account) });
        return join ' ', $a->current_balance->amount, $a->available_balance->amount;
    };
    my $clock = sub { ok_call(sub { $plinth->sandbox->retrieve_clock })->now };
    my $start = $clock->();

    my $inbound = ok_call(sub {
        $plinth->sandbox->inbound_payment({ account_number => $number->account_number, amount => 100, rail => 'ach',
            direction => 'credit', originator_name => 'Globex Corporation' })
    });
    my $got = join ' ', $inbound->status, $inbound->direction, $inbound->account_number_id // 'undef';
    check($got eq 'settled inbound ' . $number->id, "inbound $got");
    check($balances->() eq '100 100', 'after the inbound credit ' . $balances->());

    # A weekday morning first, so that the cut-off and the settlement are the same in every run.
    ok_call(sub { $plinth->sandbox->advance_clock({ to => after_next_settlement($start) }) });
    my $external = ok_call(sub {
        $plinth->external_accounts->create({ routing_number => '021000021', account_number => '000123456789',
            account_holder_name => 'Acme Supplies LLC', account_type => 'checking' })
    });
    my $payment = ok_call(sub {
        $plinth->payments->create({ account_id => $account, external_account_id => $external->id, amount => 60,
            currency => 'USD', rail => 'ach' })
    });
    check($payment->status eq 'pending_submission', 'new payment ' . $payment->status);
    check($balances->() eq '100 40', 'held at once (available -60, current unchanged) ' . $balances->());

    my $settled_at = after_next_settlement($clock->());
    my $now = ok_call(sub { $plinth->sandbox->advance_clock({ to => $settled_at }) })->now;
    (my $minute = $settled_at) =~ s/Z$//;
    check(index($now, $minute) == 0, "clock $now, asked $settled_at");
    check(ok_call(sub { $plinth->payments->retrieve($payment->id) })->status eq 'settled', 'not settled');
    check($balances->() eq '40 40', 'after settlement ' . $balances->());

    my $rule = ok_call(sub {
        $plinth->sandbox->create_payment_rule({ match => { amount => 60 }, action => { return => 'R01', at => 'P2D' } })
    });
    check($rule->id =~ /^prule_/, 'rule ' . $rule->id);
    my $later = _clock_time($now)->add(days => 3)->strftime('%Y-%m-%dT%H:%MZ');
    ok_call(sub { $plinth->sandbox->advance_clock({ to => $later }) });
    my $returned = ok_call(sub { $plinth->payments->retrieve($payment->id) });
    my $code = $returned->return_reason ? $returned->return_reason->code : 'none';
    check($returned->status eq 'returned' && $code eq 'R01', 'returned ' . $returned->status . " $code");
    my $reversals = ok_call(sub { [ $plinth->transfers->list_reversals($returned->transfer_id)->all ] });
    check(@$reversals == 1 && ($reversals->[0]->description // '') =~ /^R01/, 'reversals ' . scalar @$reversals);
    check($balances->() eq '100 100', 'after the return ' . $balances->());

    my $s = ok_call(sub { $plinth->accounts->statement($account, from => $start, to => $clock->()) });
    my $closing = $s->closing_balance;
    check($closing == $s->opening_balance + $s->credits->amount - $s->debits->amount && $closing == 100,
        "statement closing $closing");
}

1;
