<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\SimulateDepositRequest;
use Plinth\Generated\Model\SimulateWithdrawalRequest;
use Plinth\Generated\Model\Transaction;
use Plinth\Generated\Model\Transfer;

/** Sandbox simulations (sandbox keys only): money in from, and out to, nowhere, and time passing, for testing. */
final class Sandbox extends Resource
{
    /** The credit transaction. $amount in minor units. */
    public function deposit(string $accountId, int $amount, ?string $description = null, ?string $idempotencyKey = null): Transaction
    {
        $body = new SimulateDepositRequest(array_filter(['amount' => $amount, 'description' => $description], static fn ($v) => $v !== null));
        return $this->client->call(fn () => $this->api->simulateDepositWithHttpInfo($accountId, $body, $idempotencyKey));
    }

    /** The debit transaction (its amount negative). $amount in minor units. */
    public function withdraw(string $accountId, int $amount, ?string $description = null, ?string $idempotencyKey = null): Transaction
    {
        $body = new SimulateWithdrawalRequest(array_filter(['amount' => $amount, 'description' => $description], static fn ($v) => $v !== null));
        return $this->client->call(fn () => $this->api->simulateWithdrawalWithHttpInfo($accountId, $body, $idempotencyKey));
    }

    /** Expires a pending transfer now, as if its expires_at had passed: the transfer, expired, its hold released. */
    public function expireTransfer(string $id, ?string $idempotencyKey = null): Transfer
    {
        return $this->client->call(fn () => $this->api->simulateTransferExpiryWithHttpInfo($id, $idempotencyKey));
    }
}
