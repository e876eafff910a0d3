<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Account;
use Plinth\Generated\Model\AccountBalances;
use Plinth\Generated\Model\AccountList;
use Plinth\Generated\Model\AccountStatement;
use Plinth\Generated\Model\CloseAccountRequest;
use Plinth\Generated\Model\CreateAccountRequest;
use Plinth\Generated\Model\CreateAccountRequestKyb;
use Plinth\Generated\Model\FreezeAccountRequest;
use Plinth\Generated\Model\UpdateAccountRequest;

/**
 * Fintech accounts: create, list, retrieve, metadata and nickname, the lifecycle (freeze, unfreeze, close), and the
 * balances at a moment and statements (read through the generated transactions API, whose tag they carry).
 */
final class Accounts extends Resource
{
    public function __construct(Client $client, object $api, private readonly object $money)
    {
        parent::__construct($client, $api);
    }

    /** @param array{type: string, country: string, kyb?: array{ein: string, legal_name: string}, nickname?: string, metadata?: array<string, string>}|CreateAccountRequest $params */
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

    /**
     * Sets the keys of $metadata and removes those given '' (other keys stay): update($id, ['customer' => 'c-42']);
     * or removes every key: update($id, clearMetadata: true). update($id, nickname: 'Payroll') names the account,
     * nickname: '' clears the name; metadata and nickname may go together. Allowed on a closed account.
     * @param array<string, string>|null $metadata
     */
    public function update(
        string $id,
        ?array $metadata = null,
        bool $clearMetadata = false,
        ?string $idempotencyKey = null,
        ?string $nickname = null,
    ): Account {
        $change = $nickname === null ? [] : ['nickname' => $nickname];
        if ($nickname === null || $metadata !== null || $clearMetadata) {
            $change['metadata'] = self::metadataChange($metadata, $clearMetadata);
        }
        $body = new UpdateAccountRequest($change);
        return $this->client->call(fn () => $this->api->updateAccountWithHttpInfo($id, $body, $idempotencyKey));
    }

    /**
     * The balances as they stood at $at (inclusive; a time string or a \DateTimeInterface, default now):
     * getCurrentBalance(), getAvailableBalance() (less what pending transfers held then), getLastTransactionId().
     */
    public function balances(string $id, string|\DateTimeInterface|null $at = null): AccountBalances
    {
        $at = $at === null ? null : self::moment($at, 'at');
        return $this->client->call(fn () => $this->money->retrieveAccountBalancesWithHttpInfo($id, $at));
    }

    /**
     * A statement for [$from, $to) (each a time string or a \DateTimeInterface): getOpeningBalance(),
     * getClosingBalance(), getCredits() and getDebits() (count, amount), with closing = opening + credits - debits.
     */
    public function statement(
        string $id,
        string|\DateTimeInterface $from,
        string|\DateTimeInterface $to,
    ): AccountStatement {
        [$from, $to] = [self::moment($from, 'from'), self::moment($to, 'to')];
        return $this->client->call(fn () => $this->money->retrieveAccountStatementWithHttpInfo($from, $to, $id));
    }

    /**
     * One page (getData(), getHasMore()), newest first. Filters: $status (active, frozen, closed), $created
     * (['gte' => '2026-11-24T00:00Z', 'lt' => new \DateTimeImmutable()]), $metadata (['customer' => 'c-42']: every
     * pair must hold).
     * @param array<string, string|\DateTimeInterface>|null $created
     * @param array<string, string>|null $metadata
     */
    public function listPage(?string $status = null, ?array $created = null, ?array $metadata = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): AccountList
    {
        $created = self::created($created);
        $metadata = self::metadata($metadata);
        return $this->client->call(fn () => $this->api->listAccountsWithHttpInfo($limit, $startingAfter, $endingBefore, $status, $created, $metadata));
    }

    /**
     * Every account, newest first, fetching pages of $limit lazily, the filters on each.
     * @param array<string, string|\DateTimeInterface>|null $created
     * @param array<string, string>|null $metadata
     * @return \Generator<Account>
     */
    public function list(?string $status = null, ?array $created = null, ?array $metadata = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($status, $created, $metadata, $limit, $after));
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
