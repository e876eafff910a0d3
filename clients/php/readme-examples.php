<?php
/**
 * The README's PHP examples, run against PLINTH_URL by conformance.sh (after `php -l`) so that an example that no
 * longer works fails the client's test. Between the markers: written by scripts/clients/readme.ts from README.md
 * (edit the README, then run `node scripts/clients/readme.ts php`), each example a closure given what it uses but
 * does not define: a client, two funded accounts, a transfer, a webhook endpoint, and the headers and body of a signed
 * delivery. The end runs every example in order.
 */
declare(strict_types=1);

require __DIR__ . '/autoload.php';

$url = getenv('PLINTH_URL');
$key = Plinth\Client::signUp($url)->getApiKey()->getKey();
$plinth = new Plinth\Client($key, $url);
$a = $accountId = $plinth->accounts->create(['type' => 'business', 'country' => 'US'])->getId();
$b = $plinth->accounts->create(['type' => 'business', 'country' => 'US'])->getId();
$plinth->sandbox->deposit($a, 20000);
$transfer = $plinth->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 3000, 'currency' => 'USD']);
$endpointId = $plinth->webhookEndpoints->create(['url' => 'http://127.0.0.1:9/hook', 'enabled_events' => ['*']])->getId();
// A delivery of a real event, signed as the server signs one (docs/api.md#webhooks).
putenv('PLINTH_WEBHOOK_SECRET=whsec_' . base64_encode('readme-examples-secret-32-bytes!'));
$eventId = $plinth->events->listPage(limit: 1)->getData()[0]->getId();
$context = stream_context_create(['http' => ['header' => "Authorization: Bearer $key\r\n"]]);
$rawBody = (string) file_get_contents("$url/v1/events/$eventId", false, $context);
$timestamp = (string) time();
$mac = base64_encode(hash_hmac('sha256', "$eventId.$timestamp.$rawBody", 'readme-examples-secret-32-bytes!', true));
$headers = ['webhook-id' => $eventId, 'webhook-timestamp' => $timestamp, 'webhook-signature' => "v1,$mac"];
$examples = [];
sleep(1); // the balances example reads $b as it was a second ago, which must not be before $b was opened

// readme-examples:start
$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    try {
        $plinth->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 999999, 'currency' => 'USD']);
    } catch (Plinth\PlinthException $e) {
        echo $e->status, ' ', $e->errorCode, ' ', $e->param, ' ', $e->requestId, "\n"; // 409 insufficient_funds from_account_id req_…
    }
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    foreach ($plinth->accounts->list(status: 'frozen', limit: 100) as $a) {
        echo $a->getId(), "\n";
    }
    $pending = $plinth->transfers->list(status: 'pending', created: ['gte' => new DateTimeImmutable('-1 day')]);
    $customer = $plinth->accounts->list(metadata: ['customer' => 'c-42'])->current(); // the newest, or null
    $refused = $plinth->requests->list(status: '409', method: 'POST', created: ['gte' => new DateTimeImmutable('-1 hour')]);
    $page = $plinth->accounts->listPage(limit: 10);
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $hold = $plinth->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 4000, 'currency' => 'USD',
        'pending' => true, 'expires_in_seconds' => 3600, 'metadata' => ['order' => 'A-1']]);
    $hold->getStatus();                                             // 'pending'; getExpiresAt() set, getPostedAmount() null
    $plinth->accounts->retrieve($a)->getAvailableBalance()->getAmount(); // 4000 less than getCurrentBalance()
    $captured = $plinth->transfers->post($hold->getId(), 2500);
    $captured->getPostedAmount();                                   // 2500; the other 1500 is available to $a again
    $other = $plinth->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 1000, 'currency' => 'USD', 'pending' => true]);
    $plinth->transfers->void($other->getId())->getStatus();        // 'voided': released, nothing moved
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $t = $plinth->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 3000, 'currency' => 'USD']);
    $reversal = $plinth->transfers->reverse($t->getId(), amount: 1000, description: 'refund'); // getId(): 'trr_…'
    $plinth->transfers->retrieve($t->getId())->getAmountReversed();           // 1000; getReversed() false
    foreach ($plinth->transfers->listReversals($t->getId()) as $r) { echo $r->getId(), "\n"; }
    $plinth->transfers->retrieveReversal($t->getId(), $reversal->getId())->getAmount(); // 1000
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $opened = $plinth->accounts->retrieve($b)->getCreatedAt(); // a moment the account existed at
    $plinth->accounts->balances($b, at: $opened)->getCurrentBalance()->getAmount();
    $month = $plinth->accounts->statement($b, '2026-11-01T00:00Z', new DateTimeImmutable());
    $month->getClosingBalance() === $month->getOpeningBalance() + $month->getCredits()->getAmount()
        - $month->getDebits()->getAmount();                                   // true
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $plinth->accounts->update($accountId, ['customer' => 'c-42', 'old_ref' => '']); // sets customer, removes old_ref
    $plinth->transfers->update($transfer->getId(), clearMetadata: true);         // removes every key
    $plinth->webhookEndpoints->update($endpointId, ['description' => 'orders', 'metadata' => ['team' => 'payments']]);
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $created = $plinth->apiKeys->create(name: 'CI deploys', idempotencyKey: 'ci-key-1');
    $created->getKey();      // 'sk_test_…'
    $again = $plinth->apiKeys->create(name: 'CI deploys', idempotencyKey: 'ci-key-1');
    $again->isReplayed();    // true; $again->getKey() throws Plinth\SecretUnavailableException
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $made = $plinth->apiKeys->create(name: 'balances dashboard', permissions: ['accounts' => 'read', 'transactions' => 'read']);
    $made->getKey();                              // 'rk_test_…', shown this once
    $made->getPermissions()->getTransfers();      // 'none' (every group is listed)
    $reader = new Plinth\Client($made->getKey(), getenv('PLINTH_URL'));
    $reader->accounts->balances($accountId)->getCurrentBalance()->getAmount();   // reading is allowed
    try {
        $reader->transfers->create(['from_account_id' => $a, 'to_account_id' => $b, 'amount' => 100, 'currency' => 'USD']);
    } catch (Plinth\PlinthException $e) {
        echo $e->status, ' ', $e->errorCode, "\n"; // 403 permission_denied: nothing moved; $e->detail names what it needs
    }
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    // In a web request: $headers = getallheaders(); $rawBody = file_get_contents('php://input') (the exact bytes).
    $event = Plinth\Webhook::verify(getenv('PLINTH_WEBHOOK_SECRET'), $headers, $rawBody);
    echo $event->getType(), ' ', $event->getId(), "\n";
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    // From the oldest account still kept, then live; break ends it and closes the connection.
    foreach ($plinth->events->stream(type: 'fintech.account.created', after: 0) as $event) {
        $id = $event->getData()->getObject()['id'];
        echo $event->getSequence(), ' ', $event->getType(), ' ', $id, "\n";
        if ($id === $accountId) {
            break; // the account we waited for
        }
    }
};

$examples[] = function () use ($plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody): void {
    $checkpoint = $plinth->audit->retrieveCheckpoint();
    for ($after = 0; $after < $checkpoint->getSize();) {
        foreach ($plinth->audit->listChain($after, 1000)->getData() as $link) {
            $after = $link->getSequence();
            if ($after === $checkpoint->getSize()) {
                var_dump($link->getHash() === $checkpoint->getHash()); // true: the chain ends there
            }
        }
    }
};
// readme-examples:end

foreach ($examples as $i => $example) {
    $example();
    echo 'ok example ', $i + 1, "\n";
}
echo "the README's ", count($examples), " examples ran\n";
