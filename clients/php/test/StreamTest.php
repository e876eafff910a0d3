<?php
/**
 * $plinth->events->stream() against the scripted server: what a live Plinth does not send on demand, played here:
 * \r\n and lone \r line ends, an event: gap, a 503, a connection that ends halfway through an event (that event is
 * not yielded, and the resume is from the one before); a 401 throws. The live scenario (step 25) covers the rest
 * through the flaky proxy.
 */
declare(strict_types=1);

require __DIR__ . '/scripted.php';

use Plinth\Client;

$event = static fn (int $n): string => "id: $n\nevent: fintech.account.created\ndata: {\"id\":\"evt_" . sprintf('%026d', $n)
    . "\",\"object\":\"event\",\ndata: \"type\":\"fintech.account.created\",\"sequence\":$n,\"data\":{\"object\":"
    . "{\"id\":\"acct_$n\"}},\"request\":null,\"livemode\":false,\"created_at\":\"2026-11-26T10:00Z\"}\n\n";
$sse = static fn (string $body): array => ['status' => 200, 'body' => $body];

test('the stream resumes by Last-Event-ID across line ends, a cut event, a 503 and a gap', [
    $sse(": stream open\nid: 7\n\n"),
    $sse(": stream open\r\nretry: 5\r\nid: 7\r\n\r\n" . str_replace("\n", "\r\n", $event(8)) . substr($event(9), 0, 40)),
    problem(503, 'service_unavailable'),
    $sse("id: 8\r\rid: 11\nevent: gap\ndata: {\"from\":10,\"to\":11}\n\n" . $event(12)),
], function (Scripted $s, Client $p) {
    $gaps = [];
    $got = [];
    foreach ($p->events->stream(type: 'fintech.account.created', onGap: function (int $from, int $to) use (&$gaps): void {
        $gaps[] = [$from, $to];
    }) as $e) {
        $got[] = $e;
        if (count($got) === 2) {
            break;
        }
    }
    check(array_map(static fn ($e) => $e->getSequence(), $got) === [8, 12], 'sequences');
    check($got[1]->getData()->getObject()['id'] === 'acct_12', 'data over two lines');
    check($gaps === [[10, 11]], 'gaps ' . json_encode($gaps));
    check($s->lastEventIds() === [null, '7', '8', '8'], 'Last-Event-ID ' . json_encode($s->lastEventIds()));
    check($s->wire()[0][1] === '/v1/events/stream?type=fintech.account.created', 'path ' . $s->wire()[0][1]);
});

test('a refused key throws', [problem(401, 'api_key_invalid')], function (Scripted $s, Client $p) {
    $e = expectError(fn () => $p->events->stream()->current());
    check($e->status === 401 && $e->errorCode === 'api_key_invalid', "refusal {$e->status} {$e->errorCode}");
});

exit($failures === 0 ? 0 : 1);
