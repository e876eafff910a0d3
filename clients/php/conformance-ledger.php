<?php
// Step 23 of the clients conformance scenario (clients/README.md), loaded by conformance.php, whose check() and
// expectError() it uses: reverse part of a transfer, read the balances at a moment before the reversal and now, a
// statement around both, and name an account (docs/api.md#correcting-a-transfer, #balances-over-time-and-statements).
declare(strict_types=1);

use Plinth\Client;

function reversalBalancesStatementNickname(Client $plinth): void
{
    $payroll = $plinth->accounts->create(['type' => 'business', 'country' => 'US', 'nickname' => 'Payroll']);
    check($payroll->getNickname() === 'Payroll', 'nickname at create ' . json_encode($payroll->getNickname()));
    $a = $payroll->getId();
    $b = $plinth->accounts->create(['type' => 'business', 'country' => 'US'])->getId();
    $plinth->sandbox->deposit($a, 10000);
    $transfer = $plinth->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 3000,
        'currency' => 'USD']);
    $got = [$transfer->getStatus(), $transfer->getAmountReversed(), $transfer->getReversed()];
    check($got === ['posted', 0, false], 'transfer ' . json_encode($got));
    // An instant between the transfer and the reversal (the API takes RFC 3339 with seconds); the pauses keep each
    // movement's millisecond on its own side of it.
    usleep(10_000);
    $before = new DateTimeImmutable();
    usleep(10_000);
    $reversal = $plinth->transfers->reverse($transfer->getId(), 1000, 'refund', ['case' => 'R-1']);
    check(str_starts_with($reversal->getId(), 'trr_') && $reversal->getTransferId() === $transfer->getId(),
        'reversal ' . $reversal->getId());
    $got = [$reversal->getAmount(), $reversal->getCurrency(), $reversal->getMetadata()];
    check($got === [1000, 'USD', ['case' => 'R-1']], 'reversal ' . json_encode($got));
    $after = $plinth->transfers->retrieve($transfer->getId());
    $got = [$after->getAmountReversed(), $after->getReversed()];
    check($got === [1000, false], 'after ' . json_encode($got));
    $listed = [];
    foreach ($plinth->transfers->listReversals($transfer->getId(), limit: 1) as $r) {
        $listed[] = $r->getId();
    }
    check($listed === [$reversal->getId()], 'reversals listed ' . json_encode($listed));
    check($plinth->transfers->retrieveReversal($transfer->getId(), $reversal->getId())->getAmount() === 1000,
        'reversal retrieved');
    $e = expectError(fn () => $plinth->transfers->reverse($transfer->getId(), 2001));
    $got = [$e->status, $e->errorCode, $e->param];
    check($got === [400, 'parameter_invalid', 'amount'], 'reverse 2001 of what remains, 2000: ' . json_encode($got));

    $past = $plinth->accounts->balances($b, at: $before);
    $got = [$past->getCurrentBalance()->getAmount(), $past->getAvailableBalance()->getAmount()];
    check($got === [3000, 3000], 'balances before the reversal ' . json_encode($got));
    $now = $plinth->accounts->balances($b);
    check($now->getCurrentBalance()->getAmount() === 2000, 'balances now ' . $now->getCurrentBalance()->getAmount());
    usleep(10_000);
    $from = (new DateTimeImmutable($transfer->getCreatedAt()))->modify('-1 minute')->format('Y-m-d\TH:i\Z');
    $statement = $plinth->accounts->statement($b, $from, new DateTimeImmutable());
    [$opening, $closing] = [$statement->getOpeningBalance(), $statement->getClosingBalance()];
    [$credits, $debits] = [$statement->getCredits(), $statement->getDebits()];
    $got = [$opening, $credits->getCount(), $credits->getAmount(), $debits->getCount(), $debits->getAmount(), $closing];
    check($got === [0, 1, 3000, 1, 1000, 2000], 'statement (opening, credits, debits, closing) ' . json_encode($got));
    check($closing === $opening + $credits->getAmount() - $debits->getAmount(), 'statement does not add up');
    check($closing === $now->getCurrentBalance()->getAmount(), "closing $closing");
    check($plinth->accounts->statement($b, $from, $before)->getClosingBalance() === 3000, 'closing before the reversal');

    $named = $plinth->accounts->update($b, nickname: 'Operations');
    check($named->getNickname() === 'Operations', 'nickname set ' . json_encode($named->getNickname()));
    check($plinth->accounts->retrieve($b)->getNickname() === 'Operations', 'nickname read back');
    check($plinth->accounts->update($b, nickname: '')->getNickname() === null, "nickname not cleared by ''");
}
