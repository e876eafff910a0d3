<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\CreateTransferRequest;
use Plinth\Generated\Model\Transfer;
use Plinth\Generated\Model\TransferList;

/** Fintech transfers between two accounts of the organisation. */
final class Transfers extends Resource
{
    /**
     * Synchronous: the posted transfer. One Idempotency-Key, reused by retries, so the money moves once.
     * @param array{from_account_id: string, to_account_id: string, amount: int, currency: string, description?: string}|CreateTransferRequest $params
     */
    public function create(array|CreateTransferRequest $params, ?string $idempotencyKey = null): Transfer
    {
        $body = self::body(CreateTransferRequest::class, $params);
        return $this->client->call(fn () => $this->api->createTransferWithHttpInfo($body, $idempotencyKey));
    }

    public function retrieve(string $id): Transfer
    {
        return $this->client->call(fn () => $this->api->retrieveTransferWithHttpInfo($id));
    }

    /** One page, newest first; $accountId keeps the transfers from or to that account. */
    public function listPage(?string $accountId = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): TransferList
    {
        return $this->client->call(fn () => $this->api->listTransfersWithHttpInfo($accountId, $limit, $startingAfter, $endingBefore));
    }

    /** Every transfer, newest first, fetching pages of $limit lazily. @return \Generator<Transfer> */
    public function list(?string $accountId = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($accountId, $limit, $after));
    }
}
