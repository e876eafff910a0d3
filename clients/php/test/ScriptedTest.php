<?php
/**
 * What the live scenario cannot provoke, against a scripted server (`php -S` with test/scripted-router.php): 503 then
 * 409 in-progress then success with one Idempotency-Key, a key per call and the caller's key winning, Retry-After
 * waited, other 409s not retried, giving up after max retries, refused connections retried, the timeout; and the list
 * filters (created, metadata, the request log's status and method) as they go on the wire.
 */
declare(strict_types=1);

require __DIR__ . '/scripted.php';

use Plinth\Client;

$business = ['type' => 'business', 'country' => 'US'];

test('503 then 409 in-progress then success, one Idempotency-Key',
    [problem(503, 'service_unavailable', ['Retry-After' => '0']), problem(409, 'idempotency_request_in_progress')],
    function (Scripted $s, Client $p) use ($business) {
        check(str_starts_with($p->accounts->create($business)->getId(), 'acct_'), 'id');
        $seen = $s->seen();
        check(count($seen) === 3, 'attempts ' . json_encode($seen));
        check((bool) preg_match('/^[0-9a-f-]{36}$/', (string) $seen[0][1]), 'key ' . $seen[0][1]);
        check(count(array_unique(array_column($seen, 1))) === 1, 'keys ' . json_encode($seen));
        check($p->retryCount() === 2, 'retries ' . $p->retryCount());
        check($p->lastRequestId() === 'req_OK', 'request id ' . $p->lastRequestId());
    });

test("each call gets its own key; a caller's key wins", [], function (Scripted $s, Client $p) use ($business) {
    $p->accounts->create($business);
    $p->accounts->create($business);
    $p->accounts->create($business, 'mine-1');
    $keys = array_column($s->seen(), 1);
    check($keys[0] !== $keys[1], 'same key twice');
    check($keys[2] === 'mine-1', "caller's key " . $keys[2]);
});

test('Retry-After is waited', [problem(429, 'rate_limited', ['Retry-After' => '1'])], function (Scripted $s, Client $p) {
    $t0 = microtime(true);
    $p->accounts->retrieve('acct_x');
    $elapsed = microtime(true) - $t0;
    check($elapsed >= 0.95, "waited only $elapsed s");
    check(count($s->seen()) === 2, 'attempts ' . count($s->seen()));
});

test('other 409s and 4xx are not retried', [problem(409, 'account_frozen'), problem(400, 'parameter_invalid')],
    function (Scripted $s, Client $p) use ($business) {
        $e = expectError(fn () => $p->accounts->create($business));
        check($e->status === 409 && $e->errorCode === 'account_frozen', 'got ' . $e->getMessage());
        $e = expectError(fn () => $p->accounts->create($business));
        check($e->status === 400 && $e->requestId === 'req_P400', 'got ' . $e->getMessage());
        check(count($s->seen()) === 2 && $p->retryCount() === 0, 'attempts ' . count($s->seen()));
    });

test('gives up after max retries with the last error', array_fill(0, 5, problem(503, 'service_unavailable')),
    function (Scripted $s, Client $p) {
        $e = expectError(fn () => $p->accounts->retrieve('acct_x'));
        check($e->status === 503 && $e->errorCode === 'service_unavailable', 'got ' . $e->getMessage());
        check(count($s->seen()) === 1 + Client::DEFAULT_MAX_RETRIES, 'attempts ' . count($s->seen()));
    });

test('refused connections are retried, then connection_error', [], function (Scripted $s, Client $unused) use ($business) {
    $p = new Client('sk_test_scripted', 'http://127.0.0.1:' . Scripted::freePort(), baseDelay: 0.01);
    $e = expectError(fn () => $p->accounts->create($business));
    check($e->status === 0 && $e->errorCode === 'connection_error', 'got ' . $e->getMessage());
    check($p->retryCount() === Client::DEFAULT_MAX_RETRIES, 'retries ' . $p->retryCount());
});

test('the timeout applies', [['status' => 200, 'delay_ms' => 1500]], function (Scripted $s, Client $unused) {
    $p = new Client('sk_test_scripted', $s->url, timeout: 0.3, maxRetries: 0);
    $t0 = microtime(true);
    $e = expectError(fn () => $p->accounts->retrieve('acct_x'));
    $elapsed = microtime(true) - $t0;
    check($e->status === 0 && $elapsed < 1.4, 'got ' . $e->getMessage() . " after $elapsed s");
});

$newKey = static fn (string $key): string => '{"id":"key_1","object":"api_key","mode":"sandbox","hint":"sk_test_…AAAA","name":"ci",'
    . '"livemode":false,"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"permissions":null,'
    . '"key":' . $key . '}';
$endpoint = static fn (string $secret): string => '{"id":"we_1","object":"webhook_endpoint","url":"https://h.example/x","enabled_events":["*"],'
    . '"description":null,"status":"enabled","disabled_reason":null,"livemode":false,"created_at":"2026-11-22T10:53Z","secret":' . $secret . '}';
$replay = ['Idempotent-Replayed' => 'true'];
test('a new secret is a string; a replay says it has none', [
    ['status' => 200, 'body' => $newKey('"sk_test_AAAA"')],
    ['status' => 200, 'body' => $newKey('null'), 'headers' => $replay],
    ['status' => 200, 'body' => $endpoint('"whsec_AAAA"')],
    ['status' => 200, 'body' => $endpoint('null'), 'headers' => $replay],
], function (Scripted $s, Client $p) {
    $first = $p->apiKeys->create(name: 'ci', idempotencyKey: 'k');
    check($first->getKey() === 'sk_test_AAAA' && !$first->isReplayed() && $first->getName() === 'ci', 'first ' . $first);
    $again = $p->apiKeys->create(name: 'ci', idempotencyKey: 'k');
    check($again->isReplayed() && $again->getId() === 'key_1', 'replay ' . $again);
    try {
        $again->getKey();
        throw new RuntimeException('a replay returned a key');
    } catch (Plinth\SecretUnavailableException $e) {
        check(str_contains($e->getMessage(), 'idempotent replay'), $e->getMessage());
    }
    check(json_decode(json_encode($again), true)['key'] === null, 'a replay serialises');
    $created = $p->webhookEndpoints->create(['url' => 'https://h.example/x', 'enabled_events' => ['*']]);
    check($created->getSecret() === 'whsec_AAAA' && !$created->isReplayed(), 'endpoint ' . $created);
    $rotated = $p->webhookEndpoints->rotateSecret('we_1');
    check($rotated->isReplayed() && $rotated->getId() === 'we_1', 'rotated ' . $rotated);
    try {
        $rotated->getSecret();
        throw new RuntimeException('a replay returned a secret');
    } catch (Plinth\SecretUnavailableException) {
    }
});

// docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only; a rule's match and
// action are sent as their models (match holds an integer).
$accountNumber = static fn (string $digits): string => '{"id":"an_1","object":"fintech.account_number","account_id":"acct_1",'
    . '"routing_number":"110000000","account_number_last4":"9012","name":"Main","status":"active",'
    . '"inbound_debits":"allowed","livemode":false,"created_at":"2026-11-28T10:00Z","account_number":' . $digits . '}';
test('an account number is a string once; a replay says it has none', [
    ['status' => 200, 'body' => $accountNumber('"123456789012"')],
    ['status' => 200, 'body' => $accountNumber('null'), 'headers' => $replay],
    ['status' => 200, 'body' => $accountNumber('null')],
    ['status' => 200, 'body' => '{"id":"prule_1","object":"sandbox.payment_rule","match":{"amount":60,"rail":null,'
        . '"external_account_number_last4":null},"action":{"return":"R01","at":"P2D","reject":false},'
        . '"created_at":"2026-11-28T10:00Z"}'],
], function (Scripted $s, Client $p) {
    $first = $p->accountNumbers->create('acct_1', idempotencyKey: 'k');
    check($first->getAccountNumber() === '123456789012' && !$first->isReplayed(), 'first ' . $first);
    $again = $p->accountNumbers->create('acct_1', idempotencyKey: 'k');
    check($again->isReplayed() && $again->getAccountNumberLast4() === '9012', 'replay ' . $again);
    try {
        $again->getAccountNumber();
        throw new RuntimeException('a replay returned an account number');
    } catch (Plinth\SecretUnavailableException) {
    }
    check($p->accountNumbers->retrieve('an_1')->getAccountNumber() === null, 'retrieved');
    $p->sandbox->createPaymentRule(['amount' => 60], ['return' => 'R01', 'at' => 'P2D']);
    $wire = $s->wire();
    $sent = json_decode(end($wire)[2], true);
    check($sent === ['match' => ['amount' => 60], 'action' => ['return' => 'R01', 'at' => 'P2D']], json_encode($sent));
});

test('an unknown field is refused before sending', [], function (Scripted $s, Client $p) use ($business) {
    try {
        $p->accounts->create($business + ['colour' => 'red']);
        throw new RuntimeException('an unknown field was accepted');
    } catch (InvalidArgumentException $e) {
        check(str_contains($e->getMessage(), 'colour'), $e->getMessage());
    }
    check($s->seen() === [], 'a request was sent');
});

$list = ['status' => 200, 'body' => '{"object":"list","data":[],"has_more":false}'];
$transfer = ['status' => 200, 'body' => '{"id":"tr_1","object":"fintech.transfer","from_account_id":"acct_a","to_account_id":"acct_b",'
    . '"amount":4000,"currency":"USD","description":null,"status":"pending","pending":true,"posted_amount":null,'
    . '"expires_at":"2026-11-22T11:53Z","resolved_at":null,"amount_reversed":0,"reversed":false,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}'];
// The filters and metadata changes as the server reads them: deepObject query pairs (created[gte]=…, metadata[key]=value,
// brackets percent-encoded as a URL requires), a \DateTimeInterface as RFC 3339 UTC, metadata as a JSON object even when
// empty or keyed by digits, and clearMetadata as the API's "metadata": "". The live scenario shows the server honours each.
test('filters and metadata changes on the wire', [$list, $list, $list, ['status' => 200], ['status' => 200], $transfer, $transfer, $transfer],
    function (Scripted $s, Client $p) use ($business) {
        $p->accounts->listPage(status: 'active', created: ['gte' => '2026-11-24T00:00Z', 'lt' => new DateTimeImmutable('2026-11-25T02:02:03.5+01:00')],
            metadata: ['customer' => 'c-42', 'a b' => 'x&y']);
        iterator_to_array($p->transfers->list(status: 'pending', metadata: ['order' => 'A-1'], limit: 5));
        $p->events->listPage(created: ['gt' => '2026-11-24T09:30:00+01:00']);
        $p->accounts->create($business + ['metadata' => []]);
        $p->accounts->update('acct_a', clearMetadata: true);
        $p->transfers->update('tr_1', ['order' => '', '7' => 'seven']);
        $p->transfers->post('tr_1', 2500);
        $p->transfers->post('tr_1');
        $wire = $s->wire();
        $query = static function (string $target): array {
            $pairs = [];
            foreach (explode('&', (string) parse_url($target, PHP_URL_QUERY)) as $pair) {
                [$k, $v] = explode('=', $pair, 2);
                $pairs[] = [urldecode($k), urldecode($v)];
            }
            sort($pairs);
            return $pairs;
        };
        $q = $query($wire[0][1]);
        check($q === [['created[gte]', '2026-11-24T00:00Z'], ['created[lt]', '2026-11-25T01:02:03.500000Z'],
            ['metadata[a b]', 'x&y'], ['metadata[customer]', 'c-42'], ['status', 'active']], 'accounts query ' . json_encode($q));
        check(str_contains($wire[0][1], 'created%5Bgte%5D=2026-11-24T00%3A00Z'), 'brackets not percent-encoded: ' . $wire[0][1]);
        $q = $query($wire[1][1]);
        check($q === [['limit', '5'], ['metadata[order]', 'A-1'], ['status', 'pending']], 'transfers query ' . json_encode($q));
        $q = $query($wire[2][1]);
        check($q === [['created[gt]', '2026-11-24T09:30:00+01:00']], 'events query ' . json_encode($q));
        $posts = array_map(static fn ($w) => [$w[1], $w[2]], array_slice($wire, 3));
        check($posts === [
            ['/v1/fintech/accounts', '{"type":"business","country":"US","metadata":{}}'],
            ['/v1/fintech/accounts/acct_a', '{"metadata":""}'],
            ['/v1/fintech/transfers/tr_1', '{"metadata":{"order":"","7":"seven"}}'],
            ['/v1/fintech/transfers/tr_1/post', '{"amount":2500}'],
            ['/v1/fintech/transfers/tr_1/post', '{}'],
        ], 'bodies ' . json_encode($posts));
    });

test('malformed filters and metadata changes are refused before sending', [], function (Scripted $s, Client $p) {
    $refused = [
        fn () => $p->accounts->listPage(created: ['since' => '2026-11-24T00:00Z']),
        fn () => $p->events->listPage(created: ['gte' => 1795000000]),
        fn () => $p->transfers->listPage(metadata: ['order' => 7]),
        fn () => $p->accounts->update('acct_a', ['a' => 'b'], clearMetadata: true),
        fn () => $p->transfers->update('tr_1'),
    ];
    foreach ($refused as $i => $call) {
        try {
            $call();
            throw new RuntimeException("call $i was accepted");
        } catch (InvalidArgumentException) {
        }
    }
    check($s->wire() === [], 'a request was sent');
});

$logEntry = static fn (string $id): string => '{"id":"' . $id . '","object":"request","method":"POST","route":"/v1/fintech/accounts",'
    . '"path":"/v1/fintech/accounts","status":200,"error_code":null,"duration_ms":3,"api_key_id":"key_1","api_key_hint":"sk_test_…abcd",'
    . '"idempotency_key":"k","idempotent_replayed":false,"count":null,"source":"api","body":"{\"type\":\"business\"}","body_truncated":false,"response_body":null,"response_truncated":false,"query":null,"bodies_hidden":false,"error_detail":null,"error_param":null,'
    . '"livemode":false,"created_at":"2026-11-24T10:00Z"}';
// The request log's filters as the server reads them, on every page of a list: status, method and created[...] (a
// \DateTimeInterface with its offset sent as UTC), the next page's cursor beside them; retrieve by Request-Id.
test('the request log sends its filters on every page', [
    ['status' => 200, 'body' => '{"object":"list","data":[' . $logEntry('req_2') . '],"has_more":true}'],
    ['status' => 200, 'body' => '{"object":"list","data":[' . $logEntry('req_1') . '],"has_more":false}'],
    ['status' => 200, 'body' => $logEntry('req_1')],
], function (Scripted $s, Client $p) {
    $since = new DateTimeImmutable('2026-11-25T14:30:00+05:30');
    $ids = [];
    foreach ($p->requests->list(status: '200', method: 'POST', created: ['gte' => $since, 'lt' => '2026-11-26T00:00Z'], limit: 1) as $r) {
        $ids[] = $r->getId();
    }
    check($ids === ['req_2', 'req_1'], 'listed ' . json_encode($ids));
    $entry = $p->requests->retrieve('req_1');
    $got = [$entry->getMethod(), $entry->getStatus(), $entry->getSource(), $entry->getBody()];
    check($got === ['POST', 200, 'api', '{"type":"business"}'], 'entry ' . json_encode($got));
    $wire = $s->wire();
    $query = static function (string $target): array {
        $pairs = [];
        foreach (explode('&', (string) parse_url($target, PHP_URL_QUERY)) as $pair) {
            [$k, $v] = explode('=', $pair, 2);
            $pairs[] = [urldecode($k), urldecode($v)];
        }
        sort($pairs);
        return $pairs;
    };
    $filters = [['created[gte]', '2026-11-25T09:00:00.000000Z'], ['created[lt]', '2026-11-26T00:00Z'], ['limit', '1'],
        ['method', 'POST'], ['status', '200']];
    check($query($wire[0][1]) === $filters, 'first page ' . json_encode($query($wire[0][1])));
    $next = [...$filters, ['starting_after', 'req_2']];
    sort($next);
    check($query($wire[1][1]) === $next, 'second page ' . json_encode($query($wire[1][1])));
    check([$wire[2][0], $wire[2][1]] === ['GET', '/v1/requests/req_1'], 'retrieve ' . json_encode($wire[2]));
});

test('the request log refuses a bad filter before sending', [], function (Scripted $s, Client $p) {
    foreach ([fn () => $p->requests->listPage(created: ['after' => '2026-11-25T09:00Z']), fn () => $p->requests->listPage(status: '42')] as $i => $call) {
        try {
            $call();
            throw new RuntimeException("call $i was accepted");
        } catch (InvalidArgumentException) {
        }
    }
    check($s->wire() === [], 'a request was sent');
});

exit($failures === 0 ? 0 : 1);
