<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Transaction;
use Plinth\Generated\Model\TransactionList;

/** An account's ledger lines. */
final class Transactions extends Resource
{
    /**
     * One page of an account's transactions, newest first; $created as for accounts.
     * @param array<string, string|\DateTimeInterface>|null $created
     */
    public function listPage(string $accountId, ?array $created = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): TransactionList
    {
        $created = self::created($created);
        return $this->client->call(fn () => $this->api->listAccountTransactionsWithHttpInfo($accountId, $limit, $startingAfter, $endingBefore, $created));
    }

    /**
     * Every transaction of an account, newest first, fetching pages of $limit lazily.
     * @param array<string, string|\DateTimeInterface>|null $created
     * @return \Generator<Transaction>
     */
    public function list(string $accountId, ?array $created = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($accountId, $created, $limit, $after));
    }

    public function retrieve(string $id): Transaction
    {
        return $this->client->call(fn () => $this->api->retrieveTransactionWithHttpInfo($id));
    }
}
