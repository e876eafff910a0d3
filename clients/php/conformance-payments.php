<?php
// Step 26 of the clients conformance scenario (clients/README.md), loaded by conformance.php, whose check() it uses:
// money in and out over the rails on the sandbox clock. An inbound ACH credit of 100 to a new account number, an ACH
// payment of 60 out (held at once: available -60, current unchanged), the clock advanced to the next business day
// after settlement (settled), a rule that returns it R01 two days after settlement, the clock advanced again
// (returned, with a reversal of its transfer), and a statement that adds up. It runs last: it moves the
// organisation's clock days ahead.
declare(strict_types=1);

use Plinth\Client;

/** 15:00 UTC on the first weekday after $now: after that day's 09:00 New York settlement, before its cut-off. */
function afterNextSettlement(string $now): string
{
    $day = (new DateTimeImmutable($now))->setTimezone(new DateTimeZone('UTC'))->modify('+1 day');
    while ((int) $day->format('N') >= 6) {
        $day = $day->modify('+1 day');
    }
    return $day->format('Y-m-d') . 'T15:00Z';
}

function paymentsOnTheClock(Client $plinth): void
{
    $account = $plinth->accounts->create(['type' => 'business', 'country' => 'US'])->getId();
    $number = $plinth->accountNumbers->create($account, 'Main');
    check(preg_match('/^[0-9]{12}$/', $number->getAccountNumber()) === 1 && !$number->isReplayed(),
        'number ' . $number->getAccountNumberLast4());
    check($plinth->accountNumbers->retrieve($number->getId())->getAccountNumber() === null, 'the number shown again');
    $balances = function () use ($plinth, $account): array {
        $a = $plinth->accounts->retrieve($account);
        return [$a->getCurrentBalance()->getAmount(), $a->getAvailableBalance()->getAmount()];
    };
    $start = $plinth->sandbox->retrieveClock()->getNow();

    $inbound = $plinth->sandbox->inboundPayment(['account_number' => $number->getAccountNumber(), 'amount' => 100,
        'rail' => 'ach', 'direction' => 'credit', 'originator_name' => 'Globex Corporation']);
    $got = [$inbound->getStatus(), $inbound->getDirection(), $inbound->getAccountNumberId()];
    check($got === ['settled', 'inbound', $number->getId()], 'inbound ' . json_encode($got));
    check($balances() === [100, 100], 'after the inbound credit ' . json_encode($balances()));

    // A weekday morning first, so that the cut-off and the settlement are the same in every run.
    $plinth->sandbox->advanceClock(afterNextSettlement($start));
    $external = $plinth->externalAccounts->create(['routing_number' => '021000021',
        'account_number' => '000123456789', 'account_holder_name' => 'Acme Supplies LLC',
        'account_type' => 'checking']);
    $payment = $plinth->payments->create(['account_id' => $account, 'external_account_id' => $external->getId(),
        'amount' => 60, 'currency' => 'USD', 'rail' => 'ach']);
    check($payment->getStatus() === 'pending_submission', 'new payment ' . $payment->getStatus());
    check($balances() === [100, 40], 'held at once (available -60, current unchanged) ' . json_encode($balances()));

    $settledAt = afterNextSettlement($plinth->sandbox->retrieveClock()->getNow());
    $now = $plinth->sandbox->advanceClock($settledAt)->getNow();
    check(str_starts_with($now, rtrim($settledAt, 'Z')), "clock $now, asked $settledAt");
    check($plinth->payments->retrieve($payment->getId())->getStatus() === 'settled', 'not settled');
    check($balances() === [40, 40], 'after settlement ' . json_encode($balances()));

    $rule = $plinth->sandbox->createPaymentRule(['amount' => 60], ['return' => 'R01', 'at' => 'P2D']);
    check(str_starts_with($rule->getId(), 'prule_'), 'rule ' . $rule->getId());
    $later = (new DateTimeImmutable($now))->modify('+3 days')->format('Y-m-d\TH:i:s.vP');
    $plinth->sandbox->advanceClock($later);
    $returned = $plinth->payments->retrieve($payment->getId());
    check($returned->getStatus() === 'returned' && $returned->getReturnReason()?->getCode() === 'R01',
        'returned ' . $returned->getStatus());
    $reversals = iterator_to_array($plinth->transfers->listReversals($returned->getTransferId()), false);
    check(count($reversals) === 1 && str_starts_with((string) $reversals[0]->getDescription(), 'R01'),
        'reversals ' . count($reversals));
    check($balances() === [100, 100], 'after the return ' . json_encode($balances()));

    $statement = $plinth->accounts->statement($account, $start, $plinth->sandbox->retrieveClock()->getNow());
    $closing = $statement->getClosingBalance();
    check($closing === $statement->getOpeningBalance() + $statement->getCredits()->getAmount()
        - $statement->getDebits()->getAmount() && $closing === 100, "statement closing $closing");
}
