<?php
// The clients conformance scenario (clients-contract), through the PHP client's public API.
declare(strict_types=1);

require __DIR__ . '/autoload.php';
require __DIR__ . '/conformance-audit.php';
require __DIR__ . '/conformance-ledger.php';
require __DIR__ . '/conformance-payments.php';
require __DIR__ . '/conformance-permissions.php';
require __DIR__ . '/conformance-stream.php';

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
$transferId = null;
$endpoint = null;
$secret = null;
$testEvent = null;
$firstRequestId = null;

step('1 sign up', function () use ($url, &$key, &$plinth) {
    $key = Client::signUp($url)->getApiKey()->getKey();
    check(str_starts_with((string) $key, 'sk_test_'), "key $key");
    $plinth = new Client($key, $url);
});
if ($plinth === null) {
    exit(1);
}

step('2 create account, Request-Id exposed', function () use ($plinth, &$created, &$firstRequestId) {
    $a = $plinth->accounts->create(['type' => 'business', 'country' => 'US']);
    check($a->getStatus() === 'active', 'status ' . $a->getStatus());
    check($a->getAvailableBalance()->getAmount() === 0, 'amount ' . var_export($a->getAvailableBalance()->getAmount(), true));
    check($a->getAvailableBalance()->getCurrency() === 'USD', 'currency ' . $a->getAvailableBalance()->getCurrency());
    check(str_starts_with($a->getId(), 'acct_'), 'id ' . $a->getId());
    check(str_starts_with((string) $plinth->lastRequestId(), 'req_'), 'request id ' . var_export($plinth->lastRequestId(), true));
    $firstRequestId = $plinth->lastRequestId();
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
    $t = $plinth->sandbox->deposit($created[0], 10000);
    check(str_starts_with($t->getId(), 'txn_'), 'id ' . $t->getId());
    check($t->getAmount() === 10000 && $t->getBalanceAfter() === 10000, 'amount ' . $t->getAmount() . ' balance_after ' . $t->getBalanceAfter());
});

step("4b transfer (the client's own Idempotency-Key)", function () use ($plinth, &$created, &$transferId) {
    $t = $plinth->transfers->create(['from_account_id' => $created[0], 'to_account_id' => $created[1], 'amount' => 2500, 'currency' => 'USD']);
    check(str_starts_with($t->getId(), 'tr_'), 'id ' . $t->getId());
    check($t->getStatus() === 'posted' && $t->getAmount() === 2500, 'status ' . $t->getStatus() . ' amount ' . $t->getAmount());
    $transferId = $t->getId();
});

step('4c iterate the transactions', function () use ($plinth, &$created) {
    $moves = [];
    foreach ($plinth->transactions->list($created[0], limit: 1) as $t) {
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
    foreach ($plinth->accounts->list(limit: 1) as $a) {
        $seen[] = $a->getId();
    }
    check(count(array_unique($seen)) === count($seen), 'duplicates ' . implode(',', $seen));
    check($seen === array_reverse($created), 'listed ' . implode(',', $seen) . ' expected ' . implode(',', array_reverse($created)));
});

step('10 429 retried honouring Retry-After', function () use ($limitedUrl) {
    $limitedKey = Client::signUp($limitedUrl)->getApiKey()->getKey();
    $limited = new Client($limitedKey, $limitedUrl);
    for ($i = 0; $i < 6; $i++) {
        $limited->accounts->listPage(limit: 1);
    }
    check($limited->retryCount() >= 1, 'no retry happened');
});

step('11 tolerant decoding through the rewriting proxy', function () use ($proxyUrl, &$key, &$created) {
    $proxied = new Client($key, $proxyUrl);
    $a = $proxied->accounts->retrieve($created[0]);
    check($a->getId() === $created[0], 'id ' . $a->getId());
    check($a->getStatus() === 'dormant', 'status ' . $a->getStatus());
    $n = iterator_count($proxied->accounts->list(limit: 2));
    check($n === count($created), "listed $n");
    $e = expectError(fn () => $proxied->accounts->retrieve('acct_' . str_repeat('0', 26)));
    check($e->status === 404, "status {$e->status}");
    check($e->errorCode === 'future_error_code', "code {$e->errorCode}");
});

step('12 a webhook delivery verifies with its secret, not with a changed body or another secret', function () use ($receiverUrl, $plinth, &$endpoint, &$secret, &$testEvent) {
    $endpoint = $plinth->webhookEndpoints->create(['url' => "$receiverUrl/hook", 'enabled_events' => ['*']]);
    $secret = $endpoint->getSecret();
    check(str_starts_with($secret, 'whsec_'), "secret $secret");
    $testEvent = $plinth->webhookEndpoints->test($endpoint->getId());
    check($testEvent->getType() === 'webhook_endpoint.test', 'type ' . $testEvent->getType());
    $eventId = $testEvent->getId();
    $delivery = null;
    $deadline = microtime(true) + 10;
    while ($delivery === null && microtime(true) < $deadline) {
        $found = json_decode((string) file_get_contents("$receiverUrl/deliveries?event=$eventId"), true, 512, JSON_THROW_ON_ERROR);
        if ($found === []) {
            usleep(100_000);
        } else {
            $delivery = $found[0];
        }
    }
    check($delivery !== null, "no delivery of $eventId within 10 s");
    $headers = $delivery['headers'];
    $body = $delivery['body'];
    $verified = Webhook::verify($secret, $headers, $body);
    check($verified->getId() === $eventId, 'verified id ' . $verified->getId());
    check($verified->getType() === 'webhook_endpoint.test', 'verified type ' . $verified->getType());
    $i = strpos($body, $eventId) + 4; // a character of the id
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

$ids = static fn (iterable $items): array => array_map(static fn ($x) => $x->getId(), iterator_to_array($items, false));

step('13 freeze, list frozen, a transfer to it refused, unfreeze', function () use ($plinth, &$created, $ids) {
    $frozen = $plinth->accounts->freeze($created[1], 'compliance_review', note: 'conformance');
    check($frozen->getStatus() === 'frozen', 'status ' . $frozen->getStatus());
    check($frozen->getStatusDetails()?->getReason() === 'compliance_review', 'status_details ' . $frozen->getStatusDetails());
    $listed = $ids($plinth->accounts->list(status: 'frozen'));
    check($listed === [$created[1]], 'frozen accounts ' . implode(',', $listed));
    $e = expectError(fn () => $plinth->transfers->create(['from_account_id' => $created[0], 'to_account_id' => $created[1], 'amount' => 1, 'currency' => 'USD']));
    check([$e->status, $e->errorCode, $e->param] === [409, 'account_frozen', 'to_account_id'], 'error ' . $e->getMessage());
    $thawed = $plinth->accounts->unfreeze($created[1]);
    check($thawed->getStatus() === 'active' && $thawed->getStatusDetails() === null, 'unfrozen ' . $thawed->getStatus());
});

step('14 sandbox withdrawal', function () use ($plinth, &$created) {
    $t = $plinth->sandbox->withdraw($created[0], 500);
    check($t->getAmount() === -500 && $t->getBalanceAfter() === 7000, 'amount ' . $t->getAmount() . ' balance_after ' . $t->getBalanceAfter());
});

step('15 list transfers by account, retrieve one', function () use ($plinth, &$created, &$transferId, $ids) {
    $listed = $ids($plinth->transfers->list(accountId: $created[1]));
    check($listed === [$transferId], 'transfers ' . implode(',', $listed) . " expected $transferId");
    check($plinth->transfers->retrieve($transferId)->getAmount() === 2500, 'retrieved transfer');
});

step('16 close an account; a deposit to it refused', function () use ($plinth) {
    $third = $plinth->accounts->create(['type' => 'business', 'country' => 'US']);
    $closed = $plinth->accounts->close($third->getId(), 'customer_request');
    check($closed->getStatus() === 'closed' && $closed->getClosedAt() !== null, 'status ' . $closed->getStatus());
    $e = expectError(fn () => $plinth->sandbox->deposit($third->getId(), 100));
    check([$e->status, $e->errorCode] === [409, 'account_closed'], 'error ' . $e->getMessage());
});

step('17 list events of one type across pages, retrieve one', function () use ($plinth) {
    $events = iterator_to_array($plinth->events->list(type: 'fintech.account.created', limit: 2), false);
    check(count($events) >= 3, count($events) . ' events');
    foreach ($events as $i => $ev) {
        check($ev->getType() === 'fintech.account.created', 'type ' . $ev->getType());
        check($i === 0 || $events[$i - 1]->getSequence() > $ev->getSequence(), 'sequences not strictly decreasing');
    }
    $one = $plinth->events->retrieve($events[0]->getId());
    check($one->getId() === $events[0]->getId() && $one->getSequence() === $events[0]->getSequence(), 'retrieved ' . $one->getId());
});

step('18 webhook endpoint: update, deliveries, retry, rotate, list, delete', function () use ($plinth, &$endpoint, &$secret, &$testEvent, $ids) {
    $id = $endpoint->getId();
    $updated = $plinth->webhookEndpoints->update($id, ['description' => 'updated']);
    check($updated->getDescription() === 'updated', 'description ' . var_export($updated->getDescription(), true));
    $deadline = microtime(true) + 10; // the receiver answered; the server records it
    do {
        $delivery = null;
        foreach ($plinth->webhookEndpoints->listDeliveries($id) as $d) {
            if ($d->getEventId() === $testEvent->getId()) {
                $delivery = $d;
            }
        }
        $settled = $delivery?->getStatus() === 'succeeded';
        if (!$settled) {
            usleep(100_000);
        }
    } while (!$settled && microtime(true) < $deadline);
    check($settled, 'endpoint delivery ' . var_export($delivery?->getStatus(), true));
    check(in_array($delivery->getId(), $ids($plinth->events->listDeliveries($testEvent->getId())), true), 'not in the event deliveries');
    check($plinth->webhookDeliveries->retry($delivery->getId())->getId() === $delivery->getId(), 'retried');
    $rotated = $plinth->webhookEndpoints->rotateSecret($id)->getSecret();
    check(str_starts_with($rotated, 'whsec_') && $rotated !== $secret, 'rotated secret');
    check(in_array($id, $ids($plinth->webhookEndpoints->list()), true), 'endpoint not listed');
    check($plinth->webhookEndpoints->delete($id)->getDeleted() === true, 'not deleted');
    $e = expectError(fn () => $plinth->webhookEndpoints->retrieve($id));
    check([$e->status, $e->errorCode] === [404, 'resource_not_found'], 'error ' . $e->getMessage());
});

step('19 API keys: create, list, retrieve, revoke', function () use ($plinth, $ids) {
    $created = $plinth->apiKeys->create(name: 'conformance');
    check(str_starts_with($created->getKey(), 'sk_test_'), 'key');
    check($created->getName() === 'conformance', 'name ' . var_export($created->getName(), true));
    check(in_array($created->getId(), $ids($plinth->apiKeys->list()), true), 'key not listed');
    check($plinth->apiKeys->retrieve($created->getId())->getId() === $created->getId(), 'retrieved key');
    check($plinth->apiKeys->revoke($created->getId())->getRevokedAt() !== null, 'revoked_at not set');
});

$pendingIds = [];
step('20 pending transfers: hold, post part, void, expire', function () use ($plinth, &$created, &$pendingIds) {
    [$first, $second] = [$created[0], $created[1]];
    $plinth->sandbox->deposit($first, 10000);
    $before = $plinth->accounts->retrieve($first);
    $held = $plinth->transfers->create(['from_account_id' => $first, 'to_account_id' => $second, 'amount' => 4000, 'currency' => 'USD',
        'pending' => true, 'expires_in_seconds' => 3600, 'metadata' => ['order' => 'A-1']]);
    check($held->getStatus() === 'pending' && $held->getPending() === true, 'status ' . $held->getStatus());
    check($held->getExpiresAt() !== null && $held->getPostedAmount() === null, 'expires_at ' . var_export($held->getExpiresAt(), true) . ' posted_amount ' . var_export($held->getPostedAmount(), true));
    check($held->getMetadata() === ['order' => 'A-1'], 'metadata ' . json_encode($held->getMetadata()));
    $holding = $plinth->accounts->retrieve($first);
    check($holding->getCurrentBalance()->getAmount() === $before->getCurrentBalance()->getAmount(), 'current ' . $holding->getCurrentBalance()->getAmount());
    check($holding->getAvailableBalance()->getAmount() === $before->getAvailableBalance()->getAmount() - 4000, 'available ' . $holding->getAvailableBalance()->getAmount());
    $posted = $plinth->transfers->post($held->getId(), 2500);
    check($posted->getStatus() === 'posted' && $posted->getPostedAmount() === 2500, 'post: ' . $posted->getStatus() . ' ' . var_export($posted->getPostedAmount(), true));
    $settled = $plinth->accounts->retrieve($first);
    check($settled->getAvailableBalance()->getAmount() === $settled->getCurrentBalance()->getAmount()
        && $settled->getCurrentBalance()->getAmount() === $before->getCurrentBalance()->getAmount() - 2500,
        'after post: available ' . $settled->getAvailableBalance()->getAmount() . ' current ' . $settled->getCurrentBalance()->getAmount());
    $voided = $plinth->transfers->create(['from_account_id' => $first, 'to_account_id' => $second, 'amount' => 1000, 'currency' => 'USD', 'pending' => true]);
    check($plinth->transfers->void($voided->getId())->getStatus() === 'voided', 'not voided');
    $e = expectError(fn () => $plinth->transfers->post($voided->getId()));
    check([$e->status, $e->errorCode] === [409, 'transfer_not_pending'], 'post of a voided one: ' . $e->getMessage());
    $expiring = $plinth->transfers->create(['from_account_id' => $first, 'to_account_id' => $second, 'amount' => 500, 'currency' => 'USD', 'pending' => true]);
    check($plinth->sandbox->expireTransfer($expiring->getId())->getStatus() === 'expired', 'not expired');
    $e = expectError(fn () => $plinth->transfers->post($expiring->getId()));
    check([$e->status, $e->errorCode] === [409, 'transfer_expired'], 'post of an expired one: ' . $e->getMessage());
    $pendingIds = [$held->getId(), $voided->getId(), $expiring->getId()];
});

step('21 metadata and filters', function () use ($plinth, &$created, &$pendingIds, $ids) {
    $first = $created[0];
    $updated = $plinth->accounts->update($first, ['customer' => 'c-42']);
    check($updated->getMetadata() === ['customer' => 'c-42'], 'metadata ' . json_encode($updated->getMetadata()));
    $listed = $ids($plinth->accounts->list(metadata: ['customer' => 'c-42']));
    check($listed === [$first], 'accounts with customer c-42: ' . implode(',', $listed));
    $stillPending = $ids($plinth->transfers->list(status: 'pending'));
    check(array_intersect($stillPending, $pendingIds) === [], 'pending transfers ' . implode(',', $stillPending));
    check($ids($plinth->transfers->list(status: 'voided')) === [$pendingIds[1]], 'voided transfers');
    $byOrder = $ids($plinth->transfers->list(metadata: ['order' => 'A-1']));
    check($byOrder === [$pendingIds[0]], 'transfers with order A-1: ' . implode(',', $byOrder));
    $cleared = $plinth->transfers->update($pendingIds[0], ['order' => '']);
    check($cleared->getMetadata() === [], 'metadata after removing order: ' . json_encode($cleared->getMetadata()));
    $since = $plinth->accounts->retrieve($first)->getCreatedAt();
    check($plinth->events->list(created: ['gte' => $since])->current() !== null, "no event created at or after $since");
    check($plinth->events->list(created: ['lt' => '2000-01-01T00:00Z'])->current() === null, 'events created before 2000');
});

step('22 the request log: list with filters, retrieve', function () use ($plinth, &$firstRequestId) {
    $since = new DateTimeImmutable('-1 hour');
    $found = null;
    $deadline = microtime(true) + 10; // the log is written in batches
    do {
        foreach ($plinth->requests->list(status: '200', method: 'POST', created: ['gte' => $since], limit: 100) as $r) {
            if ($r->getId() === $firstRequestId) {
                $found = $r;
                break;
            }
        }
        if ($found === null) {
            usleep(200_000);
        }
    } while ($found === null && microtime(true) < $deadline);
    check($found !== null, "the create of step 2 ($firstRequestId) not in the request log within 10 s");
    check($found->getRoute() === '/v1/fintech/accounts', 'route ' . $found->getRoute());
    $entry = $plinth->requests->retrieve((string) $firstRequestId);
    $sent = json_decode($entry->getBody() ?? '{}', true, 512, JSON_THROW_ON_ERROR);
    $got = [$entry->getId(), $entry->getMethod(), $entry->getStatus(), $entry->getSource(), $sent['type'] ?? null, $sent['country'] ?? null];
    check($got === [$firstRequestId, 'POST', 200, 'api', 'business', 'US'], 'entry ' . json_encode($got));
    $page = $plinth->requests->listPage(limit: 1, created: ['gte' => '2000-01-01T00:00Z']);
    check(count($page->getData()) === 1 && $page->getHasMore() === true, 'page of ' . count($page->getData()) . ', has_more ' . var_export($page->getHasMore(), true));
});

step('23 reverse part of a transfer, balances at a moment, a statement, a nickname', function () use ($plinth) {
    reversalBalancesStatementNickname($plinth);
});

step('24 a read-only key reads an account and its balances, and cannot move money',
    fn () => readOnlyKey($plinth, $url, $created[0], $created[1]));

step('25 the event stream resumes across lost connections with no gap and no repeat',
    fn () => eventStream($plinth, $key, $proxyUrl));

step('26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule',
    fn () => paymentsOnTheClock($plinth));

step('27 audit: the chain paged with after matches the signed checkpoint and its key', fn () => auditChain($plinth));

exit($failures === 0 ? 0 : 1);
