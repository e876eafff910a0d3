<?php
// Step 24 of the clients conformance scenario (clients/README.md), loaded by conformance.php, whose check() and
// expectError() it uses: a read-only key reads an account and its balances but cannot move money (docs/api.md,
// "Create a key"; a key may do only what its permissions allow, else 403 permission_denied).
declare(strict_types=1);

use Plinth\Client;

function readOnlyKey(Client $plinth, string $url, string $from, string $to): void
{
    $made = $plinth->apiKeys->create(name: 'read-only', permissions: ['accounts' => 'read', 'transactions' => 'read']);
    check(str_starts_with($made->getKey(), 'rk_test_'), 'key ' . substr($made->getKey(), 0, 8) . '…');
    $levels = json_decode(json_encode($made->getPermissions()), true);
    ksort($levels);
    $expected = ['accounts' => 'read', 'api_keys' => 'none', 'events' => 'none', 'payments' => 'none',
        'requests' => 'none', 'sandbox' => 'none', 'transactions' => 'read', 'transfers' => 'none',
        'webhook_endpoints' => 'none'];
    check($levels === $expected, 'permissions ' . json_encode($levels));
    check($plinth->apiKeys->retrieve($made->getId())->getPermissions()?->getAccounts() === 'read', 'retrieved');
    $before = $plinth->accounts->balances($from)->getCurrentBalance()->getAmount();

    $reader = new Client($made->getKey(), $url);
    check($reader->accounts->retrieve($from)->getId() === $from, 'read-only key retrieving the account');
    $amount = $reader->accounts->balances($from)->getCurrentBalance()->getAmount();
    check($amount === $before, "read-only key reading the balances: $amount");
    $e = expectError(fn () => $reader->transfers->create(['from_account_id' => $from, 'to_account_id' => $to,
        'amount' => 100, 'currency' => 'USD']));
    check([$e->status, $e->errorCode] === [403, 'permission_denied'], 'transfer, read-only key: ' . $e->getMessage());
    $after = $plinth->accounts->balances($from)->getCurrentBalance()->getAmount();
    check($after === $before, "balance $before became $after after a refused transfer");
}
