<?php
declare(strict_types=1);

namespace Plinth\Model;

use Plinth\Generated\Model\WebhookEndpointWithSecret as Generated;
use Plinth\SecretUnavailableException;

/**
 * A webhook endpoint as create and rotateSecret answer it: every getter of the generated model, with getSecret() a
 * whsec_… string, never null. On an idempotent replay (isReplayed()) getSecret() throws SecretUnavailableException.
 */
final class WebhookEndpointWithSecret extends Generated
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

    /** The signing secret: what Plinth\Webhook::verify needs. */
    public function getSecret(): string
    {
        return $this->container['secret'] ?? throw SecretUnavailableException::forField('secret');
    }

    /** Whether this is the idempotent replay of an earlier answer (Idempotent-Replayed: true). */
    public function isReplayed(): bool
    {
        return $this->replayed;
    }

    /** What serialisation reads (json_encode, __toString): the secret as it came, null on a replay. */
    public function getSecretOrNull(): ?string
    {
        return $this->container['secret'];
    }

    public static function getters()
    {
        return ['secret' => 'getSecretOrNull'] + parent::getters();
    }
}
