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
    /** A new key (getKey(), a string, shown this once); $mode defaults to the calling key's, $name is a label. */
    public function create(?string $mode = null, ?string $name = null, ?string $idempotencyKey = null): NewApiKey
    {
        $body = new CreateApiKeyRequest(array_filter(['mode' => $mode, 'name' => $name], static fn ($v) => $v !== null));
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
}
