<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Event;
use Plinth\Generated\ObjectSerializer;

/**
 * Verifies a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with hash_hmac and hash_equals:
 *
 *     $event = Plinth\Webhook::verify($secret, $headers, $rawBody); // throws Plinth\WebhookVerificationException
 *
 * $rawBody must be the exact bytes received (file_get_contents('php://input')), not a re-serialised parse of them.
 */
final class Webhook
{
    /** How far a delivery's webhook-timestamp may be from now, either way, by default (seconds). */
    public const DEFAULT_TOLERANCE = 300;

    /**
     * Checks that webhook-timestamp is within $tolerance seconds of $now and that one of the "v1," signatures is the
     * HMAC-SHA256, keyed with the decoded whsec_ secret, of "<id>.<timestamp>.<body>" (compared in constant time);
     * returns the parsed event. Header names are matched without regard to case; a value may be a list (PSR-7).
     *
     * @param array<string, string|string[]> $headers
     */
    public static function verify(string $secret, array $headers, string $rawBody, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): Event
    {
        $header = static function (string $name) use ($headers): ?string {
            foreach ($headers as $key => $value) {
                if (strtolower((string) $key) === $name) {
                    return is_array($value) ? implode(' ', $value) : (string) $value;
                }
            }
            return null;
        };
        $id = $header('webhook-id');
        $timestamp = $header('webhook-timestamp');
        $signatures = $header('webhook-signature');
        if ($id === null || $id === '' || $timestamp === null || $timestamp === '' || $signatures === null || $signatures === '') {
            throw new WebhookVerificationException('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required');
        }
        if (preg_match('/\A\d+\z/', $timestamp) !== 1) {
            throw new WebhookVerificationException('timestamp_invalid', 'webhook-timestamp is not unix seconds');
        }
        $now ??= time();
        $sent = (int) $timestamp;
        if ($sent < $now - $tolerance) {
            throw new WebhookVerificationException('timestamp_too_old', 'webhook-timestamp is too old');
        }
        if ($sent > $now + $tolerance) {
            throw new WebhookVerificationException('timestamp_too_new', 'webhook-timestamp is in the future');
        }
        $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
        if ($key === false || $key === '') {
            throw new WebhookVerificationException('secret_invalid', 'the secret is not whsec_ followed by base64');
        }
        $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$rawBody", $key, true));
        $matched = false;
        foreach (explode(' ', $signatures) as $candidate) {
            $parts = explode(',', $candidate, 2);
            if (count($parts) === 2 && $parts[0] === 'v1' && hash_equals($expected, $parts[1])) {
                $matched = true;
            }
        }
        if (!$matched) {
            throw new WebhookVerificationException('signature_mismatch', 'no webhook-signature matches the body');
        }
        try {
            $event = ObjectSerializer::deserialize(json_decode($rawBody, false, 512, JSON_THROW_ON_ERROR), Event::class, []);
        } catch (\JsonException $e) {
            throw new WebhookVerificationException('body_invalid', 'the signed body is not an event: ' . $e->getMessage());
        }
        return $event;
    }
}
