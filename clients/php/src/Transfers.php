<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Api\FintechTransfersApi;
use Plinth\Generated\Model\CreateTransferRequest;
use Plinth\Generated\Model\Transfer;

/** Fintech transfers. */
final class Transfers
{
    public function __construct(private readonly Client $client, public readonly FintechTransfersApi $api)
    {
    }

    /**
     * Synchronous: the posted transfer. One Idempotency-Key, reused by retries, so the money moves once.
     * @param array{from_account_id: string, to_account_id: string, amount: int, currency: string, description?: string}|CreateTransferRequest $params
     */
    public function create(array|CreateTransferRequest $params, ?string $idempotencyKey = null): Transfer
    {
        $params = is_array($params) ? new CreateTransferRequest($params) : $params;
        return $this->client->call(fn () => $this->api->createTransferWithHttpInfo($params, $idempotencyKey));
    }

    public function retrieve(string $id): Transfer
    {
        return $this->client->call(fn () => $this->api->retrieveTransferWithHttpInfo($id));
    }
}
