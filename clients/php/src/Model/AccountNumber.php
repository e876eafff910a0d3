<?php
declare(strict_types=1);

namespace Plinth\Model;

use Plinth\Generated\Model\AccountNumber as Generated;
use Plinth\SecretUnavailableException;

/**
 * An account number as create answers it: every getter of the generated model, with getAccountNumber() the 12 digits,
 * never null (every later read shows only getAccountNumberLast4()). On an idempotent replay (isReplayed())
 * getAccountNumber() throws SecretUnavailableException.
 */
final class AccountNumber extends Generated
{
    private bool $replayed = false;

    public static function of(Generated $answer, bool $replayed): self
    {
        $self = new self();
        $self->container = $answer->container;
        $self->openAPINullablesSetToNull = $answer->openAPINullablesSetToNull;
        $self->replayed = $replayed;
        return $self;
    }

    /** The 12 digits to give payers, with getRoutingNumber(). */
    public function getAccountNumber(): string
    {
        return $this->container['account_number'] ?? throw SecretUnavailableException::forField('account_number');
    }

    /** Whether this is the idempotent replay of an earlier answer (Idempotent-Replayed: true). */
    public function isReplayed(): bool
    {
        return $this->replayed;
    }

    /** What serialisation reads (json_encode, __toString): the number as it came, null on a replay. */
    public function getAccountNumberOrNull(): ?string
    {
        return $this->container['account_number'];
    }

    public static function getters()
    {
        return ['account_number' => 'getAccountNumberOrNull'] + parent::getters();
    }
}
