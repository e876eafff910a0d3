<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Api\FintechTransactionsApi;
use Plinth\Generated\Model\SimulateDepositRequest;
use Plinth\Generated\Model\Transaction;

/** Sandbox simulations (sandbox keys only). */
final class Sandbox
{
    public function __construct(private readonly Client $client, public readonly FintechTransactionsApi $api)
    {
    }

    /**
     * Money in from nowhere, for testing: the credit transaction.
     * @param array{amount: int, description?: string}|SimulateDepositRequest $params
     */
    public function deposit(string $accountId, array|SimulateDepositRequest $params, ?string $idempotencyKey = null): Transaction
    {
        $params = is_array($params) ? new SimulateDepositRequest($params) : $params;
        return $this->client->call(fn () => $this->api->simulateDepositWithHttpInfo($accountId, $params, $idempotencyKey));
    }
}
