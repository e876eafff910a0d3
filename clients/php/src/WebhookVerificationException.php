<?php
declare(strict_types=1);

namespace Plinth;

/**
 * Why Webhook::verify refused a delivery: $reason is one of missing_headers, timestamp_invalid, timestamp_too_old,
 * timestamp_too_new, secret_invalid, signature_mismatch, body_invalid.
 */
final class WebhookVerificationException extends \RuntimeException
{
    public function __construct(public readonly string $reason, string $message)
    {
        parent::__construct($message);
    }
}
