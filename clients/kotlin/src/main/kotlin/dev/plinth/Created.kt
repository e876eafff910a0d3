package dev.plinth

import dev.plinth.client.models.AccountNumber
import dev.plinth.client.models.NewApiKey
import dev.plinth.client.models.NewApiKeyPermissionsAnyOf0
import dev.plinth.client.models.WebhookEndpointWithSecret

/**
 * Thrown by [CreatedApiKey.key] and [CreatedWebhookEndpoint.secret] when the answer is an idempotent replay
 * (`Idempotent-Replayed: true`): the server never stores a secret, so a replay of the request that created it answers
 * `null` in its place. The object exists ([objectId]); revoke the key and create another, or rotate the secret.
 */
class SecretUnavailableException internal constructor(what: String, val objectId: String, remedy: String) : IllegalStateException(
    "the $what of $objectId is not in this answer: it is an idempotent replay (Idempotent-Replayed: true), " +
        "and the server shows a secret only in the first answer; $remedy",
)

/**
 * A new API key with its secret, as [ApiKeys.create] and [Plinth.signUp] answer: [key] is a plain `String`. The one
 * exception is an idempotent replay ([replayed]), whose answer carries no secret: [key] then throws
 * [SecretUnavailableException].
 */
class CreatedApiKey internal constructor(private val raw: NewApiKey, val replayed: Boolean) {
    /** The secret (`sk_test_…` or `sk_live_…`): keep it, it is shown only here. */
    val key: String get() = raw.key ?: throw SecretUnavailableException("key", raw.id, "revoke this key and create another")

    /** The key id, `key_…`: what you retrieve and revoke; not a secret. */
    val id: String get() = raw.id
    val `object`: String get() = raw.`object`
    val mode: String get() = raw.mode
    val hint: String get() = raw.hint
    val name: String? get() = raw.name
    val livemode: Boolean get() = raw.livemode
    val createdAt: String get() = raw.createdAt
    val revokedAt: String? get() = raw.revokedAt
    val lastUsedAt: String? get() = raw.lastUsedAt

    /** A restricted key's level for each of the eight groups (`accounts`, …); `null` for a full key. */
    val permissions: NewApiKeyPermissionsAnyOf0? get() = raw.permissions

    override fun toString() = "CreatedApiKey(id=$id, hint=$hint, replayed=$replayed)"
}

/**
 * A webhook endpoint with its signing secret, as [WebhookEndpoints.create] and [WebhookEndpoints.rotateSecret]
 * answer: [secret] is a plain `String`, except on an idempotent replay ([replayed]), where it throws
 * [SecretUnavailableException].
 */
class CreatedWebhookEndpoint internal constructor(private val raw: WebhookEndpointWithSecret, val replayed: Boolean) {
    /** `whsec_…`: what [Webhook.verify] checks deliveries with; shown only here. */
    val secret: String get() = raw.secret ?: throw SecretUnavailableException("secret", raw.id, "rotate the endpoint's secret to get a new one")

    val id: String get() = raw.id
    val `object`: String get() = raw.`object`
    val url: String get() = raw.url
    val enabledEvents: List<String> get() = raw.enabledEvents
    val description: String? get() = raw.description
    val metadata: Map<String, String> get() = raw.metadata
    val status: String get() = raw.status
    val disabledReason: String? get() = raw.disabledReason
    val livemode: Boolean get() = raw.livemode
    val createdAt: String get() = raw.createdAt

    override fun toString() = "CreatedWebhookEndpoint(id=$id, url=$url, replayed=$replayed)"
}

/**
 * A new account number, as [AccountNumbers.create] answers: [accountNumber] is the 12 digits, a plain `String`, shown
 * only in this answer (later reads show [accountNumberLast4]). On an idempotent replay ([replayed]) the answer carries
 * no number: [accountNumber] then throws [SecretUnavailableException].
 */
class CreatedAccountNumber internal constructor(private val raw: AccountNumber, val replayed: Boolean) {
    /** The 12 digits to give payers, with [routingNumber]; shown only here. */
    val accountNumber: String get() =
        raw.accountNumber ?: throw SecretUnavailableException("account_number", raw.id, "disable this account number and create another")

    val id: String get() = raw.id
    val `object`: String get() = raw.`object`
    val accountId: String get() = raw.accountId
    val routingNumber: String get() = raw.routingNumber
    val accountNumberLast4: String get() = raw.accountNumberLast4
    val name: String? get() = raw.name
    val status: String get() = raw.status
    val inboundDebits: String get() = raw.inboundDebits
    val livemode: Boolean get() = raw.livemode
    val createdAt: String get() = raw.createdAt

    override fun toString() = "CreatedAccountNumber(id=$id, last4=$accountNumberLast4, replayed=$replayed)"
}

/** A new sandbox organisation and its first key, usable at once: what [Plinth.signUp] answers. */
class SignUp internal constructor(val orgId: String, val apiKey: CreatedApiKey) {
    /** The first key's secret, `sk_test_…` (a sign-up is never replayed, so it is always there). */
    val key: String get() = apiKey.key
}
