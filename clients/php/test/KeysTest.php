<?php
/**
 * A key's permissions as they go on the wire, against the scripted server: apiKeys->create() sends them as the API's
 * object of group => level; a restricted key reads them back, a full key's are null; anything but an array of
 * group => level strings is refused before it is sent.
 */
declare(strict_types=1);

require __DIR__ . '/scripted.php';

use Plinth\Client;

$key = static fn (string $permissions, string $key): array => ['status' => 200, 'body' => '{"id":"key_1",'
    . '"object":"api_key","mode":"sandbox","hint":"' . substr($key, 0, 8) . '…AAAA","name":null,"livemode":false,'
    . '"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"permissions":' . $permissions
    . ',"key":"' . $key . '"}'];
$readOnly = '{"accounts":"read","transfers":"none","transactions":"read","sandbox":"none","events":"none",'
    . '"webhook_endpoints":"none","api_keys":"none","requests":"none","payments":"none"}';

test('permissions sent on create and read back', [$key($readOnly, 'rk_test_AAAA'), $key('null', 'sk_test_AAAA')],
    function (Scripted $s, Client $p) {
        $made = $p->apiKeys->create(name: 'ro', permissions: ['accounts' => 'read', 'transactions' => 'read']);
        $levels = $made->getPermissions();
        $got = [$made->getKey(), $levels->getAccounts(), $levels->getTransactions(), $levels->getTransfers()];
        check($got === ['rk_test_AAAA', 'read', 'read', 'none'], 'restricted key ' . json_encode($got));
        check($p->apiKeys->create()->getPermissions() === null, 'a full key has permissions');
        foreach ([['read'], ['accounts' => 1], ['accounts' => null]] as $malformed) {
            try {
                $p->apiKeys->create(permissions: $malformed);
                throw new RuntimeException('sent permissions ' . json_encode($malformed));
            } catch (InvalidArgumentException) {
            }
        }
        $sent = array_column($s->wire(), 2);
        check($sent === ['{"name":"ro","permissions":{"accounts":"read","transactions":"read"}}', '{}'],
            'sent ' . json_encode($sent));
    });

exit($failures === 0 ? 0 : 1);
