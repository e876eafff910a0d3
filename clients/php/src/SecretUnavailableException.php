<?php
declare(strict_types=1);

namespace Plinth;

/**
 * Thrown by a secret's getter (NewApiKey::getKey(), WebhookEndpointWithSecret::getSecret()) when the answer is the
 * idempotent replay of an earlier one: the server shows a secret once and never stores it, so a replay carries null.
 */
final class SecretUnavailableException extends \LogicException
{
    public static function forField(string $field): self
    {
        return new self("$field is shown only in the first answer; this is an idempotent replay (Idempotent-Replayed: true) of an earlier request, which carried it");
    }
}
