<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\CreateTransferRequest;
use Plinth\Generated\Model\CreateTransferReversalRequest;
use Plinth\Generated\Model\PostTransferRequest;
use Plinth\Generated\Model\Transfer;
use Plinth\Generated\Model\TransferList;
use Plinth\Generated\Model\TransferReversal;
use Plinth\Generated\Model\TransferReversalList;
use Plinth\Generated\Model\UpdateTransferRequest;

/**
 * Fintech transfers between two accounts of the organisation: posted at once, or pending (money held on the sender)
 * until posted, voided or expired.
 */
final class Transfers extends Resource
{
    /**
     * Posted at once; with 'pending' => true (and 'expires_in_seconds', 60 to 2592000, default 7 days) the amount is
     * only held: the sender's available balance drops, nothing moves until post(). One Idempotency-Key, reused by
     * retries, so the money moves (or is held) once.
     * @param array{from_account_id: string, to_account_id: string, amount: int, currency: string, description?: string, pending?: bool, expires_in_seconds?: int, metadata?: array<string, string>}|CreateTransferRequest $params
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

    /**
     * update($id, ['order' => 'A-2', 'old' => '']) or update($id, clearMetadata: true): as for accounts.
     * @param array<string, string>|null $metadata
     */
    public function update(string $id, ?array $metadata = null, bool $clearMetadata = false, ?string $idempotencyKey = null): Transfer
    {
        $body = new UpdateTransferRequest(['metadata' => self::metadataChange($metadata, $clearMetadata)]);
        return $this->client->call(fn () => $this->api->updateTransferWithHttpInfo($id, $body, $idempotencyKey));
    }

    /**
     * Moves a pending transfer's money: all of it, or $amount of it (the rest returns to the sender's available
     * balance). The transfer, posted, with getPostedAmount(). 409 transfer_not_pending / transfer_expired otherwise.
     */
    public function post(string $id, ?int $amount = null, ?string $idempotencyKey = null): Transfer
    {
        $body = new PostTransferRequest($amount === null ? [] : ['amount' => $amount]);
        return $this->client->call(fn () => $this->api->postTransferWithHttpInfo($id, $idempotencyKey, $body));
    }

    /** Releases a pending transfer's hold, moving nothing: the transfer, voided. */
    public function void(string $id, ?string $idempotencyKey = null): Transfer
    {
        return $this->client->call(fn () => $this->api->voidTransferWithHttpInfo($id, $idempotencyKey));
    }

    /**
     * Corrects a posted transfer by moving money back (docs/api.md#correcting-a-transfer): $amount of it, or all that
     * remains unreversed. The reversal (trr_…); the transfer's amount_reversed grows, and reversed is true once all of
     * it is back. 409 transfer_not_reversible for a transfer not posted or already fully reversed. One
     * Idempotency-Key, reused by retries, so the money moves back once.
     * @param array<string, string>|null $metadata
     */
    public function reverse(
        string $id,
        ?int $amount = null,
        ?string $description = null,
        ?array $metadata = null,
        ?string $idempotencyKey = null,
    ): TransferReversal {
        $fields = ['amount' => $amount, 'description' => $description, 'metadata' => self::metadata($metadata)];
        $body = self::body(CreateTransferReversalRequest::class, array_filter($fields, static fn ($v) => $v !== null));
        return $this->client->call(
            fn () => $this->api->createTransferReversalWithHttpInfo($id, $idempotencyKey, $body),
        );
    }

    /** One page of a transfer's reversals, newest first. */
    public function listReversalsPage(
        string $id,
        ?int $limit = null,
        ?string $startingAfter = null,
        ?string $endingBefore = null,
    ): TransferReversalList {
        return $this->client->call(
            fn () => $this->api->listTransferReversalsWithHttpInfo($id, $limit, $startingAfter, $endingBefore),
        );
    }

    /**
     * Every reversal of a transfer, newest first, fetching pages of $limit lazily.
     * @return \Generator<TransferReversal>
     */
    public function listReversals(string $id, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listReversalsPage($id, $limit, $after));
    }

    /** One reversal of the transfer $id (404 for a reversal of another transfer). */
    public function retrieveReversal(string $id, string $reversalId): TransferReversal
    {
        return $this->client->call(fn () => $this->api->retrieveTransferReversalWithHttpInfo($id, $reversalId));
    }

    /**
     * One page, newest first. Filters: $accountId (from or to that account), $status (pending, posted, voided,
     * expired), $created and $metadata as for accounts.
     * @param array<string, string|\DateTimeInterface>|null $created
     * @param array<string, string>|null $metadata
     */
    public function listPage(?string $accountId = null, ?string $status = null, ?array $created = null, ?array $metadata = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): TransferList
    {
        $created = self::created($created);
        $metadata = self::metadata($metadata);
        return $this->client->call(fn () => $this->api->listTransfersWithHttpInfo($accountId, $status, $created, $metadata, $limit, $startingAfter, $endingBefore));
    }

    /**
     * Every transfer, newest first, fetching pages of $limit lazily, the filters on each.
     * @param array<string, string|\DateTimeInterface>|null $created
     * @param array<string, string>|null $metadata
     * @return \Generator<Transfer>
     */
    public function list(?string $accountId = null, ?string $status = null, ?array $created = null, ?array $metadata = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($accountId, $status, $created, $metadata, $limit, $after));
    }
}
