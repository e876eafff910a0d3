<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Api\FintechAccountsApi;
use Plinth\Generated\Api\FintechTransactionsApi;
use Plinth\Generated\Model\Account;
use Plinth\Generated\Model\AccountList;
use Plinth\Generated\Model\CreateAccountRequest;
use Plinth\Generated\Model\CreateAccountRequestKyb;
use Plinth\Generated\Model\TransactionList;

/** Fintech accounts. */
final class Accounts
{
    public function __construct(
        private readonly Client $client,
        public readonly FintechAccountsApi $api,
        public readonly FintechTransactionsApi $transactionsApi,
    ) {
    }

    /** @param array{type: string, country: string, kyb?: array{ein: string, legal_name: string}}|CreateAccountRequest $params */
    public function create(array|CreateAccountRequest $params, ?string $idempotencyKey = null): Account
    {
        if (is_array($params)) {
            if (isset($params['kyb']) && is_array($params['kyb'])) {
                $params['kyb'] = new CreateAccountRequestKyb($params['kyb']);
            }
            $params = new CreateAccountRequest($params);
        }
        return $this->client->call(fn () => $this->api->createAccountWithHttpInfo($params, $idempotencyKey));
    }

    public function retrieve(string $id): Account
    {
        return $this->client->call(fn () => $this->api->retrieveAccountWithHttpInfo($id));
    }

    public function listPage(?int $limit = null, ?string $startingAfter = null): AccountList
    {
        return $this->client->call(fn () => $this->api->listAccountsWithHttpInfo($limit, $startingAfter));
    }

    /** Every account, newest first, fetching pages of $pageSize lazily. @return \Generator<Account> */
    public function list(?int $pageSize = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($pageSize, $after));
    }

    /** One page of an account's transactions, newest first. */
    public function transactionsPage(string $id, ?int $limit = null, ?string $startingAfter = null): TransactionList
    {
        return $this->client->call(fn () => $this->transactionsApi->listAccountTransactionsWithHttpInfo($id, $limit, $startingAfter));
    }

    /** Every transaction of an account, newest first, fetching pages of $pageSize lazily. @return \Generator<\Plinth\Generated\Model\Transaction> */
    public function transactions(string $id, ?int $pageSize = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->transactionsPage($id, $pageSize, $after));
    }
}
