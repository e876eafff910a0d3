package dev.plinth

import dev.plinth.client.infrastructure.Serializer
import dev.plinth.client.models.Event
import java.security.MessageDigest
import java.time.Duration
import java.time.Instant
import java.util.Base64
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

/**
 * Why [Webhook.verify] refused a delivery: [reason] is one of `missing_headers`, `timestamp_invalid`,
 * `timestamp_too_old`, `timestamp_too_new`, `secret_invalid`, `signature_mismatch`, `body_invalid`.
 */
class WebhookVerificationException(val reason: String, message: String) : RuntimeException(message)

/**
 * Verifies a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1) with `javax.crypto`:
 *
 *     val event = Webhook.verify(secret, headers, rawBody) // throws WebhookVerificationException
 *
 * `rawBody` must be the exact bytes received, not a re-serialised parse of them.
 */
object Webhook {
    /** How far a delivery's `webhook-timestamp` may be from now, either way, by default. */
    val DEFAULT_TOLERANCE: Duration = Duration.ofMinutes(5)

    fun verify(secret: String, headers: Map<String, String>, rawBody: String, tolerance: Duration = DEFAULT_TOLERANCE, now: Instant = Instant.now()): Event =
        verify(secret, headers, rawBody.toByteArray(Charsets.UTF_8), tolerance, now)

    /**
     * Checks that `webhook-timestamp` is within [tolerance] of [now] and that one of the `v1,` signatures is the
     * HMAC-SHA256, keyed with the decoded `whsec_` secret, of `<id>.<timestamp>.<body>` (compared in constant time);
     * returns the parsed event. Header names are matched without regard to case.
     */
    fun verify(secret: String, headers: Map<String, String>, rawBody: ByteArray, tolerance: Duration = DEFAULT_TOLERANCE, now: Instant = Instant.now()): Event {
        fun header(name: String) = headers.entries.firstOrNull { it.key.equals(name, ignoreCase = true) }?.value?.takeIf { it.isNotEmpty() }
        val id = header("webhook-id")
        val timestamp = header("webhook-timestamp")
        val signatures = header("webhook-signature")
        if (id == null || timestamp == null || signatures == null) {
            throw WebhookVerificationException("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required")
        }
        val sent = timestamp.takeIf { t -> t.all { it in '0'..'9' } }?.toLongOrNull()
            ?: throw WebhookVerificationException("timestamp_invalid", "webhook-timestamp is not unix seconds")
        if (sent < now.minus(tolerance).epochSecond) throw WebhookVerificationException("timestamp_too_old", "webhook-timestamp is too old")
        if (sent > now.plus(tolerance).epochSecond) throw WebhookVerificationException("timestamp_too_new", "webhook-timestamp is in the future")
        val key = try {
            Base64.getDecoder().decode(secret.removePrefix("whsec_"))
        } catch (e: IllegalArgumentException) {
            throw WebhookVerificationException("secret_invalid", "the secret is not whsec_ followed by base64")
        }
        if (key.isEmpty()) throw WebhookVerificationException("secret_invalid", "the secret is empty")
        val mac = Mac.getInstance("HmacSHA256")
        mac.init(SecretKeySpec(key, "HmacSHA256"))
        mac.update("$id.$timestamp.".toByteArray(Charsets.UTF_8))
        val expected = Base64.getEncoder().encode(mac.doFinal(rawBody))
        var matched = false
        for (candidate in signatures.split(' ')) {
            val version = candidate.substringBefore(',', missingDelimiterValue = "")
            if (version != "v1") continue
            if (MessageDigest.isEqual(candidate.substringAfter(',').toByteArray(Charsets.US_ASCII), expected)) matched = true
        }
        if (!matched) throw WebhookVerificationException("signature_mismatch", "no webhook-signature matches the body")
        return try {
            Serializer.jacksonObjectMapper.readValue(rawBody, Event::class.java)
        } catch (e: Exception) {
            throw WebhookVerificationException("body_invalid", "the signed body is not an event: ${e.message}")
        }
    }
}
