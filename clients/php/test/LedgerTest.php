<?php
/**
 * Reversals, balances at a moment, statements and nicknames as they go on the wire, against the scripted server: a
 * reversal is a POST with its own Idempotency-Key and only the fields given; its list sends its cursor on every page;
 * a \DateTimeInterface is sent as RFC 3339 UTC; a nickname update sends no metadata, and '' clears.
 */
declare(strict_types=1);

require __DIR__ . '/scripted.php';

use Plinth\Client;

$reversal = static fn (string $id): string => '{"id":"trr_' . $id . '","object":"fintech.transfer_reversal",'
    . '"transfer_id":"tr_1","amount":1000,"currency":"USD","description":null,"metadata":{},"livemode":false,'
    . '"created_at":"2026-11-22T10:53Z"}';
$page = static fn (string $id, bool $more): array => ['status' => 200,
    'body' => '{"object":"list","data":[' . $reversal($id) . '],"has_more":' . ($more ? 'true' : 'false') . '}'];
$reply = static fn (string $body): array => ['status' => 200, 'body' => $body];

test('reversals on the wire', [$reply($reversal('1')), $reply($reversal('2')), $page('2', true), $page('1', false),
    $reply($reversal('1'))], function (Scripted $s, Client $p) {
    $r = $p->transfers->reverse('tr_1', amount: 1000, metadata: ['case' => 'R-1']);
    check([$r->getId(), $r->getTransferId(), $r->getAmount()] === ['trr_1', 'tr_1', 1000], 'reversal decoded');
    $p->transfers->reverse('tr_1', idempotencyKey: 'mine-1');
    $ids = array_map(static fn ($r) => $r->getId(), iterator_to_array($p->transfers->listReversals('tr_1', 1), false));
    check($ids === ['trr_2', 'trr_1'], 'listed ' . json_encode($ids));
    check($p->transfers->retrieveReversal('tr_1', 'trr_1')->getId() === 'trr_1', 'retrieved');
    $keys = array_column($s->seen(), 1);
    check(preg_match('/^[0-9a-f-]{36}$/', (string) $keys[0]) === 1, 'no key of its own: ' . json_encode($keys));
    check(array_slice($keys, 1) === ['mine-1', null, null, null], 'keys ' . json_encode($keys));
    $path = '/v1/fintech/transfers/tr_1/reversals';
    $wire = $s->wire();
    check($wire === [['POST', $path, '{"amount":1000,"metadata":{"case":"R-1"}}'], ['POST', $path, '{}'],
        ['GET', "$path?limit=1", ''], ['GET', "$path?limit=1&starting_after=trr_2", ''],
        ['GET', "$path/trr_1", '']], 'wire ' . json_encode($wire));
});

$balances = '{"object":"fintech.balances","account_id":"acct_a","at":"2026-11-22T10:53Z","current_balance":'
    . '{"amount":3000,"currency":"USD"},"available_balance":{"amount":2500,"currency":"USD"},'
    . '"last_transaction_id":null,"livemode":false}';
$statement = '{"object":"fintech.statement","account_id":"acct_a","currency":"USD","from":"2026-11-22T10:00Z",'
    . '"to":"2026-11-22T11:00Z","opening_balance":0,"closing_balance":2000,"credits":{"count":1,"amount":3000},'
    . '"debits":{"count":1,"amount":1000},"livemode":false}';
test('balances and statements on the wire', [$reply($balances), $reply($balances), $reply($statement),
    $reply($statement)], function (Scripted $s, Client $p) {
    $then = $p->accounts->balances('acct_a', new DateTimeImmutable('2026-11-22T16:23:04.5+05:30'));
    check([$then->getCurrentBalance()->getAmount(), $then->getAvailableBalance()->getAmount()] === [3000, 2500],
        'balances decoded');
    $p->accounts->balances('acct_a');
    $st = $p->accounts->statement('acct_a', '2026-11-22T10:00Z', new DateTimeImmutable('2026-11-22T11:00:00Z'));
    $got = [$st->getOpeningBalance(), $st->getClosingBalance(), $st->getCredits()->getCount(),
        $st->getCredits()->getAmount(), $st->getDebits()->getCount(), $st->getDebits()->getAmount()];
    check($got === [0, 2000, 1, 3000, 1, 1000], 'statement decoded ' . json_encode($got));
    $p->accounts->statement('acct_a', from: '2026-11-22T10:00:00+01:00', to: '2026-11-22T11:00Z');
    $path = '/v1/fintech/accounts/acct_a';
    $targets = array_map(static fn ($w) => [$w[0], urldecode($w[1])], $s->wire());
    check($targets === [['GET', "$path/balances?at=2026-11-22T10:53:04.500000Z"], ['GET', "$path/balances"],
        ['GET', "$path/statement?from=2026-11-22T10:00Z&to=2026-11-22T11:00:00.000000Z"],
        ['GET', "$path/statement?from=2026-11-22T10:00:00+01:00&to=2026-11-22T11:00Z"]],
        'wire ' . json_encode($targets));
});

$named = '{"id":"acct_a","object":"fintech.account","type":"business","country":"US","status":"active",'
    . '"available_balance":{"amount":0,"currency":"USD"},"kyb":null,"nickname":"Payroll","livemode":false,'
    . '"created_at":"2026-11-22T10:53Z"}';
test('nicknames on the wire', [$reply($named)], function (Scripted $s, Client $p) {
    $a = $p->accounts->create(['type' => 'business', 'country' => 'US', 'nickname' => 'Payroll']);
    check($a->getNickname() === 'Payroll', 'nickname decoded: ' . json_encode($a->getNickname()));
    $p->accounts->update('acct_a', nickname: 'Payroll');
    $p->accounts->update('acct_a', ['team' => 'ops'], nickname: 'Payroll');
    $p->accounts->update('acct_a', nickname: '');
    $bodies = array_column($s->wire(), 2);
    check($bodies === ['{"type":"business","country":"US","nickname":"Payroll"}', '{"nickname":"Payroll"}',
        '{"metadata":{"team":"ops"},"nickname":"Payroll"}', '{"nickname":""}'], 'bodies ' . json_encode($bodies));
    try {
        $p->accounts->update('acct_a');
        throw new RuntimeException('an update of nothing was accepted');
    } catch (InvalidArgumentException) {
    }
});

exit($failures === 0 ? 0 : 1);
