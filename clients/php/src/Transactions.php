<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Transaction;
use Plinth\Generated\Model\TransactionList;

/** An account's ledger lines. */
final class Transactions extends Resource
{
    /** One page of an account's transactions, newest first. */
    public function listPage(string $accountId, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): TransactionList
    {
        return $this->client->call(fn () => $this->api->listAccountTransactionsWithHttpInfo($accountId, $limit, $startingAfter, $endingBefore));
    }

    /** Every transaction of an account, newest first, fetching pages of $limit lazily. @return \Generator<Transaction> */
    public function list(string $accountId, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($accountId, $limit, $after));
    }

    public function retrieve(string $id): Transaction
    {
        return $this->client->call(fn () => $this->api->retrieveTransactionWithHttpInfo($id));
    }
}
