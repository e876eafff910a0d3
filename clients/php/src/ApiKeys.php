<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Api\APIKeysApi;
use Plinth\Generated\Model\ApiKey;
use Plinth\Generated\Model\ApiKeyList;
use Plinth\Generated\Model\CreateApiKeyRequest;
use Plinth\Generated\Model\NewApiKey;

/** API keys of the caller's organisation. */
final class ApiKeys
{
    public function __construct(private readonly Client $client, public readonly APIKeysApi $api)
    {
    }

    /** @param array{mode?: string}|CreateApiKeyRequest $params */
    public function create(array|CreateApiKeyRequest $params = [], ?string $idempotencyKey = null): NewApiKey
    {
        $body = is_array($params) ? new CreateApiKeyRequest($params) : $params;
        return $this->client->call(fn () => $this->api->createApiKeyWithHttpInfo($idempotencyKey, $body));
    }

    public function revoke(string $id): ApiKey
    {
        return $this->client->call(fn () => $this->api->revokeApiKeyWithHttpInfo($id));
    }

    public function listPage(?int $limit = null, ?string $startingAfter = null): ApiKeyList
    {
        return $this->client->call(fn () => $this->api->listApiKeysWithHttpInfo($limit, $startingAfter));
    }

    /** @return \Generator<ApiKey> */
    public function list(?int $pageSize = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($pageSize, $after));
    }
}
