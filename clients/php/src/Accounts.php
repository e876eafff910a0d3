<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Account;
use Plinth\Generated\Model\AccountList;
use Plinth\Generated\Model\CloseAccountRequest;
use Plinth\Generated\Model\CreateAccountRequest;
use Plinth\Generated\Model\CreateAccountRequestKyb;
use Plinth\Generated\Model\FreezeAccountRequest;

/** Fintech accounts: create, list, retrieve and the lifecycle (freeze, unfreeze, close). */
final class Accounts extends Resource
{
    /** @param array{type: string, country: string, kyb?: array{ein: string, legal_name: string}}|CreateAccountRequest $params */
    public function create(array|CreateAccountRequest $params, ?string $idempotencyKey = null): Account
    {
        if (is_array($params) && is_array($params['kyb'] ?? null)) {
            $params['kyb'] = self::body(CreateAccountRequestKyb::class, $params['kyb']);
        }
        $body = self::body(CreateAccountRequest::class, $params);
        return $this->client->call(fn () => $this->api->createAccountWithHttpInfo($body, $idempotencyKey));
    }

    public function retrieve(string $id): Account
    {
        return $this->client->call(fn () => $this->api->retrieveAccountWithHttpInfo($id));
    }

    /** One page (getData(), getHasMore()), newest first; $status filters (active, frozen, closed). */
    public function listPage(?string $status = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): AccountList
    {
        return $this->client->call(fn () => $this->api->listAccountsWithHttpInfo($limit, $startingAfter, $endingBefore, $status));
    }

    /** Every account, newest first, fetching pages of $limit lazily. @return \Generator<Account> */
    public function list(?string $status = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($status, $limit, $after));
    }

    /** No money moves in or out until it is unfrozen. $reason: suspected_fraud, compliance_review, customer_request, other. */
    public function freeze(string $id, string $reason, ?string $note = null, ?string $idempotencyKey = null): Account
    {
        $body = new FreezeAccountRequest(array_filter(['reason' => $reason, 'note' => $note], static fn ($v) => $v !== null));
        return $this->client->call(fn () => $this->api->freezeAccountWithHttpInfo($id, $body, $idempotencyKey));
    }

    public function unfreeze(string $id, ?string $idempotencyKey = null): Account
    {
        return $this->client->call(fn () => $this->api->unfreezeAccountWithHttpInfo($id, $idempotencyKey));
    }

    /** Final. $reason: customer_request, fraud, compliance, other (the server's default). */
    public function close(string $id, ?string $reason = null, ?string $note = null, ?string $idempotencyKey = null): Account
    {
        $body = new CloseAccountRequest(array_filter(['reason' => $reason, 'note' => $note], static fn ($v) => $v !== null));
        return $this->client->call(fn () => $this->api->closeAccountWithHttpInfo($id, $idempotencyKey, $body));
    }
}
