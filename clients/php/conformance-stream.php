<?php
// Step 25 of the clients conformance scenario (clients/README.md), loaded by conformance.php, whose check() and
// expectError() it uses: the live event stream through the rewriting proxy, which splits each event's data over two
// lines, adds a comment and a retry field, and loses the connection after every event (ended cleanly, then cut).
// The generator yields the last three listed events once each, in order, then a live one; a type filter holds;
// breaking out stops it; a revoked key's stream throws PlinthException, 401.
declare(strict_types=1);

use Plinth\Client;

function eventStream(Client $plinth, string $key, string $proxyUrl): void
{
    $proxied = new Client($key, $proxyUrl);
    $listed = $plinth->events->listPage(limit: 3)->getData();
    check(count($listed) === 3, count($listed) . ' events listed');
    $newest = $listed[0]->getSequence();
    $got = [];
    $live = null;
    foreach ($proxied->events->stream(after: $newest - 3) as $event) {
        $got[] = $event;
        if (count($got) === 3) {
            $live = $plinth->accounts->create(['type' => 'business', 'country' => 'US'])->getId();
        }
        if (count($got) === 4) {
            break;
        }
    }
    $pairs = static fn (array $events) => array_map(static fn ($e) => $e->getId() . '@' . $e->getSequence(), $events);
    check($pairs(array_slice($got, 0, 3)) === $pairs(array_reverse($listed)),
        'streamed ' . implode(' ', $pairs(array_slice($got, 0, 3))) . ', listed ' . implode(' ', $pairs(array_reverse($listed))));
    $object = (array) $got[3]->getData()->getObject();
    check($got[3]->getSequence() === $newest + 1 && $got[3]->getType() === 'fintech.account.created' && ($object['id'] ?? null) === $live,
        'live event ' . $got[3]->getSequence() . ' ' . $got[3]->getType() . ', want ' . ($newest + 1) . " for $live");

    $sequences = [];
    foreach ($proxied->events->stream(type: 'fintech.account.created', after: 0) as $event) {
        check($event->getType() === 'fintech.account.created', 'typed stream yielded ' . $event->getType());
        check($sequences === [] || $event->getSequence() > end($sequences), 'sequences ' . implode(',', $sequences) . ' then ' . $event->getSequence());
        $sequences[] = $event->getSequence();
        if (count($sequences) === 3) {
            break;
        }
    }

    $doomed = $plinth->apiKeys->create();
    $plinth->apiKeys->revoke($doomed->getId());
    $revoked = new Client($doomed->getKey(), $proxyUrl);
    $e = expectError(fn () => $revoked->events->stream()->current());
    check($e->status === 401, "a revoked key's stream: {$e->status} {$e->errorCode}");
}
