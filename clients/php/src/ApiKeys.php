<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\ApiKey;
use Plinth\Generated\Model\ApiKeyList;
use Plinth\Generated\Model\CreateApiKeyRequest;
use Plinth\Model\NewApiKey;

/** API keys of the caller's organisation. */
final class ApiKeys extends Resource
{
    /**
     * A new key (getKey(), a string, shown this once); $mode defaults to the calling key's, $name is a label.
     * $permissions (['accounts' => 'read', …]: group => 'none', 'read' or 'write', a group left out is none) makes a
     * restricted rk_test_/rk_live_ key, whose getPermissions() then lists every group (null for a full key);
     * docs/api.md, "Create a key".
     * @param array<string, string>|null $permissions
     */
    public function create(
        ?string $mode = null,
        ?string $name = null,
        ?array $permissions = null,
        ?string $idempotencyKey = null,
    ): NewApiKey {
        $fields = ['mode' => $mode, 'name' => $name, 'permissions' => self::permissions($permissions)];
        $body = new CreateApiKeyRequest(array_filter($fields, static fn ($v) => $v !== null));
        [$key, $headers] = $this->client->callWithHeaders(fn () => $this->api->createApiKeyWithHttpInfo($idempotencyKey, $body));
        return NewApiKey::of($key, Client::replayed($headers));
    }

    public function retrieve(string $id): ApiKey
    {
        return $this->client->call(fn () => $this->api->retrieveApiKeyWithHttpInfo($id));
    }

    public function listPage(?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): ApiKeyList
    {
        return $this->client->call(fn () => $this->api->listApiKeysWithHttpInfo($limit, $startingAfter, $endingBefore));
    }

    /** @return \Generator<ApiKey> */
    public function list(?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($limit, $after));
    }

    /** The key stops working at once: getRevokedAt() set. */
    public function revoke(string $id, ?string $idempotencyKey = null): ApiKey
    {
        return $this->client->call(fn () => $this->api->revokeApiKeyWithHttpInfo($id, $idempotencyKey));
    }

    /**
     * Permissions as the API takes them: a JSON object of group => level, both strings. Which groups and levels exist
     * is the server's to judge (a 400 naming permissions.<group>), so a group newer than this client still goes.
     * @param array<string, string>|null $permissions
     */
    private static function permissions(?array $permissions): ?object
    {
        if ($permissions === null) {
            return null;
        }
        foreach ($permissions as $group => $level) {
            if (!is_string($group) || !is_string($level)) {
                throw new \InvalidArgumentException(
                    "permissions: an array of group => level, e.g. ['accounts' => 'read'] (got $group => "
                    . get_debug_type($level) . ')',
                );
            }
        }
        return (object) $permissions;
    }
}
