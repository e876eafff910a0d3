<?php
declare(strict_types=1);

namespace Plinth\Model;

use Plinth\Generated\Model\NewApiKey as Generated;
use Plinth\SecretUnavailableException;

/**
 * A new API key as the server answers it once: every getter of the generated model, with getKey() a string, never
 * null. On an idempotent replay (isReplayed()) there is no key to return, and getKey() throws
 * SecretUnavailableException instead of handing back a null to trip over later.
 */
final class NewApiKey extends Generated
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

    /** The secret key, sk_test_… or sk_live_… (rk_test_… or rk_live_… when restricted): store it now. */
    public function getKey(): string
    {
        return $this->container['key'] ?? throw SecretUnavailableException::forField('key');
    }

    /** Whether this is the idempotent replay of an earlier answer (Idempotent-Replayed: true). */
    public function isReplayed(): bool
    {
        return $this->replayed;
    }

    /** What serialisation reads (json_encode, __toString): the key as it came, null on a replay. */
    public function getKeyOrNull(): ?string
    {
        return $this->container['key'];
    }

    public static function getters()
    {
        return ['key' => 'getKeyOrNull'] + parent::getters();
    }
}
