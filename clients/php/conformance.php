<?php
// The clients conformance scenario (clients-contract), through the PHP client's public API.
declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Plinth\Client;
use Plinth\Generated\Model\Account;
use Plinth\PlinthException;
use Plinth\Webhook;
use Plinth\WebhookVerificationException;

function env(string $name): string
{
    $v = getenv($name);
    if ($v === false || $v === '') {
        throw new RuntimeException("$name is not set");
    }
    return $v;
}

function check(bool $ok, string $what): void
{
    if (!$ok) {
        throw new RuntimeException($what);
    }
}

function expectError(callable $f): PlinthException
{
    try {
        $f();
    } catch (PlinthException $e) {
        return $e;
    }
    throw new RuntimeException('expected a PlinthException');
}

$failures = 0;
function step(string $name, callable $f): void
{
    global $failures;
    try {
        $f();
        echo "ok   $name\n";
    } catch (Throwable $t) {
        $failures++;
        echo "FAIL $name: " . get_class($t) . ': ' . $t->getMessage() . "\n";
    }
}

$url = env('PLINTH_URL');
$proxyUrl = env('PLINTH_PROXY_URL');
$limitedUrl = env('PLINTH_LIMITED_URL');
$receiverUrl = env('PLINTH_RECEIVER_URL');
$key = null;
$plinth = null;
$created = [];

step('1 sign up', function () use ($url, &$key, &$plinth) {
    $key = Client::signup($url)->getApiKey()->getKey();
    check(str_starts_with((string) $key, 'sk_test_'), "key $key");
    $plinth = new Client($key, $url);
});
if ($plinth === null) {
    exit(1);
}

step('2 create account, Request-Id exposed', function () use ($plinth, &$created) {
    $a = $plinth->accounts->create(['type' => 'business', 'country' => 'US']);
    check($a->getStatus() === 'active', 'status ' . $a->getStatus());
    check($a->getAvailableBalance()->getAmount() === 0, 'amount ' . var_export($a->getAvailableBalance()->getAmount(), true));
    check($a->getAvailableBalance()->getCurrency() === 'USD', 'currency ' . $a->getAvailableBalance()->getCurrency());
    check(str_starts_with($a->getId(), 'acct_'), 'id ' . $a->getId());
    check(str_starts_with((string) $plinth->lastRequestId(), 'req_'), 'request id ' . var_export($plinth->lastRequestId(), true));
    $created[] = $a->getId();
});

step('3 create with kyb', function () use ($plinth, &$created) {
    $a = $plinth->accounts->create(['type' => 'business', 'country' => 'US', 'kyb' => ['ein' => '12-3456789', 'legal_name' => 'Acme Corp']]);
    check($a->getKyb()?->getEinLast4() === '6789', 'kyb ' . json_encode($a->getKyb()));
    $created[] = $a->getId();
});

step('4 retrieve', function () use ($plinth, &$created) {
    $a = $plinth->accounts->retrieve($created[0]);
    check($a->getId() === $created[0], 'id ' . $a->getId());
});

step('4a deposit (sandbox)', function () use ($plinth, &$created) {
    $t = $plinth->sandbox->deposit($created[0], ['amount' => 10000]);
    check(str_starts_with($t->getId(), 'txn_'), 'id ' . $t->getId());
    check($t->getAmount() === 10000 && $t->getBalanceAfter() === 10000, 'amount ' . $t->getAmount() . ' balance_after ' . $t->getBalanceAfter());
});

step("4b transfer (the client's own Idempotency-Key)", function () use ($plinth, &$created) {
    $t = $plinth->transfers->create(['from_account_id' => $created[0], 'to_account_id' => $created[1], 'amount' => 2500, 'currency' => 'USD']);
    check(str_starts_with($t->getId(), 'tr_'), 'id ' . $t->getId());
    check($t->getStatus() === 'posted' && $t->getAmount() === 2500, 'status ' . $t->getStatus() . ' amount ' . $t->getAmount());
});

step('4c iterate the transactions', function () use ($plinth, &$created) {
    $moves = [];
    foreach ($plinth->accounts->transactions($created[0], 1) as $t) {
        $moves[] = [$t->getAmount(), $t->getBalanceAfter()];
    }
    check($moves === [[-2500, 7500], [10000, 10000]], 'transactions [amount, balance_after] ' . json_encode($moves));
});

step('4d insufficient funds -> 409 with param', function () use ($plinth, &$created) {
    $e = expectError(fn () => $plinth->transfers->create(['from_account_id' => $created[0], 'to_account_id' => $created[1], 'amount' => 999999, 'currency' => 'USD']));
    check($e->status === 409, "status {$e->status}");
    check($e->errorCode === 'insufficient_funds', "code {$e->errorCode}");
    check($e->param === 'from_account_id', 'param ' . var_export($e->param, true));
    check(str_starts_with((string) $e->requestId, 'req_'), 'request_id ' . var_export($e->requestId, true));
});

$idemKey = 'conformance-' . bin2hex(random_bytes(12));
step('5 idempotent replay', function () use ($plinth, $idemKey, &$created) {
    $a = $plinth->accounts->create(['type' => 'business', 'country' => 'US'], $idemKey);
    $b = $plinth->accounts->create(['type' => 'business', 'country' => 'US'], $idemKey);
    check($a->getId() === $b->getId(), $a->getId() . ' != ' . $b->getId());
    $created[] = $a->getId();
});

step('6 key reused with another body -> 422', function () use ($plinth, $idemKey) {
    $e = expectError(fn () => $plinth->accounts->create(['type' => 'business', 'country' => 'CA'], $idemKey));
    check($e->status === 422, "status {$e->status}");
    check($e->errorCode === 'idempotency_key_reused', "code {$e->errorCode}");
    check(str_starts_with((string) $e->requestId, 'req_'), 'request_id ' . var_export($e->requestId, true));
});

step('7 bad key -> 401', function () use ($url, &$created) {
    $bad = new Client('sk_test_' . str_repeat('A', 38), $url);
    $e = expectError(fn () => $bad->accounts->retrieve($created[0]));
    check($e->status === 401, "status {$e->status}");
    check($e->errorCode === 'api_key_invalid', "code {$e->errorCode}");
});

step('8 unknown field -> 400 parameter_unknown', function () use ($plinth) {
    $e = expectError(fn () => $plinth->request('POST', '/v1/fintech/accounts', ['type' => 'business', 'country' => 'US', 'colour' => 'red'], Account::class));
    check($e->status === 400, "status {$e->status}");
    check($e->errorCode === 'parameter_unknown', "code {$e->errorCode}");
    check($e->param === 'colour', 'param ' . var_export($e->param, true));
    check($e->errors !== [], 'errors empty');
});

step('9 auto-pagination', function () use ($plinth, &$created) {
    $seen = [];
    foreach ($plinth->accounts->list(1) as $a) {
        $seen[] = $a->getId();
    }
    check(count(array_unique($seen)) === count($seen), 'duplicates ' . implode(',', $seen));
    check($seen === array_reverse($created), 'listed ' . implode(',', $seen) . ' expected ' . implode(',', array_reverse($created)));
});

step('10 429 retried honouring Retry-After', function () use ($limitedUrl) {
    $limitedKey = Client::signup($limitedUrl)->getApiKey()->getKey();
    $limited = new Client($limitedKey, $limitedUrl);
    for ($i = 0; $i < 6; $i++) {
        $limited->accounts->listPage(1);
    }
    check($limited->retryCount() >= 1, 'no retry happened');
});

step('11 tolerant decoding through the rewriting proxy', function () use ($proxyUrl, &$key, &$created) {
    $proxied = new Client($key, $proxyUrl);
    $a = $proxied->accounts->retrieve($created[0]);
    check($a->getId() === $created[0], 'id ' . $a->getId());
    check($a->getStatus() === 'dormant', 'status ' . $a->getStatus());
    $n = iterator_count($proxied->accounts->list(2));
    check($n === count($created), "listed $n");
    $e = expectError(fn () => $proxied->accounts->retrieve('acct_' . str_repeat('0', 26)));
    check($e->status === 404, "status {$e->status}");
    check($e->errorCode === 'future_error_code', "code {$e->errorCode}");
});

step('12 a webhook delivery verifies with its secret, not with a changed body or another secret', function () use ($receiverUrl, &$plinth) {
    $endpoint = $plinth->request('POST', '/v1/webhook_endpoints', ['url' => "$receiverUrl/hook", 'enabled_events' => ['*']]);
    $secret = $endpoint['secret'];
    check(str_starts_with((string) $secret, 'whsec_'), "secret $secret");
    $event = $plinth->request('POST', "/v1/webhook_endpoints/{$endpoint['id']}/test");
    check($event['type'] === 'webhook_endpoint.test', "type {$event['type']}");
    $delivery = null;
    $deadline = microtime(true) + 10;
    while ($delivery === null && microtime(true) < $deadline) {
        $found = json_decode((string) file_get_contents("$receiverUrl/deliveries?event={$event['id']}"), true, 512, JSON_THROW_ON_ERROR);
        if ($found === []) {
            usleep(100_000);
        } else {
            $delivery = $found[0];
        }
    }
    check($delivery !== null, "no delivery of {$event['id']} within 10 s");
    $headers = $delivery['headers'];
    $body = $delivery['body'];
    $verified = Webhook::verify($secret, $headers, $body);
    check($verified->getId() === $event['id'], 'verified id ' . $verified->getId());
    check($verified->getType() === 'webhook_endpoint.test', 'verified type ' . $verified->getType());
    $i = strpos($body, $event['id']) + 4; // a character of the id
    $changed = $body;
    $changed[$i] = $body[$i] === '0' ? '1' : '0';
    $other = 'whsec_' . base64_encode(str_repeat("\x07", 32));
    foreach ([[$secret, $changed], [$other, $body]] as [$wrongSecret, $wrongBody]) {
        try {
            Webhook::verify($wrongSecret, $headers, $wrongBody);
            throw new RuntimeException('a changed body or another secret verified');
        } catch (WebhookVerificationException $e) {
            check($e->reason === 'signature_mismatch', "reason {$e->reason}");
        }
    }
});

exit($failures === 0 ? 0 : 1);
