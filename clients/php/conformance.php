<?php
// The clients conformance scenario (clients-contract), through the PHP client's public API.
declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Plinth\Client;
use Plinth\Generated\Model\Account;
use Plinth\PlinthException;

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

exit($failures === 0 ? 0 : 1);
