package dev.plinth

import dev.plinth.client.models.CreateApiKeyRequest
import dev.plinth.client.models.CreateApiKeyRequestPermissions

/**
 * API keys of the caller's organisation: `/v1/api_keys`. The operations are generated ([ApiKeysOperations]); this
 * sends a restricted key's permissions as given.
 */
class ApiKeys internal constructor(plinth: Plinth) : ApiKeysOperations(plinth) {
    /** `createApiKey` with the generated request model; its permissions are sent as given (see [sent]). */
    override fun create(params: CreateApiKeyRequest, idempotencyKey: String?): CreatedApiKey =
        super.create(params.permissions?.let { params.copy(permissions = sent(it)) } ?: params, idempotencyKey)

    companion object {
        /**
         * The generated model is a map (its schema allows other groups) and is sent as its entries alone: its
         * constructor's levels (`accounts = …`) would be left out, so they are copied into the entries. Every group
         * and level is sent as given: one newer than this client too, and one the server does not know is its 400
         * `parameter_invalid` naming `permissions.<group>`, not a value silently dropped.
         */
        private fun sent(p: CreateApiKeyRequestPermissions): CreateApiKeyRequestPermissions {
            val declared = mapOf(
                "accounts" to p.accounts?.value, "transfers" to p.transfers?.value, "transactions" to p.transactions?.value,
                "sandbox" to p.sandbox?.value, "events" to p.events?.value, "webhook_endpoints" to p.webhookEndpoints?.value,
                "api_keys" to p.apiKeys?.value, "requests" to p.requests?.value,
            )
            return CreateApiKeyRequestPermissions().apply { putAll(p + declared.filterValues { it != null }.mapValues { it.value!! }) }
        }
    }
}

/**
 * Events: what happened, newest first, numbered by `sequence`. The operations are generated ([EventsOperations]);
 * this adds the live stream, which is no operation of the document.
 */
class Events internal constructor(plinth: Plinth) : EventsOperations(plinth) {
    /** The live event stream of [type] (all: null), after sequence [after] (null: from the next event), resuming by itself: see [EventStream]. Close it to stop. */
    fun stream(type: String? = null, after: Long? = null, onGap: ((from: Long, to: Long) -> Unit)? = null): EventStream =
        EventStream(plinth.base, plinth.apiKey, java.time.Duration.ofMillis(plinth.httpClient.connectTimeoutMillis.toLong()), type, after, onGap)
}
