package dev.plinth

import dev.plinth.client.apis.APIKeysApi
import dev.plinth.client.apis.EventsApi
import dev.plinth.client.apis.WebhooksApi
import dev.plinth.client.infrastructure.Serializer
import dev.plinth.client.models.ApiKey
import dev.plinth.client.models.ApiKeyList
import dev.plinth.client.models.CreateApiKeyRequest
import dev.plinth.client.models.CreateApiKeyRequestPermissions
import dev.plinth.client.models.CreateWebhookEndpointRequest
import dev.plinth.client.models.DeletedWebhookEndpoint
import dev.plinth.client.models.Event
import dev.plinth.client.models.EventList
import dev.plinth.client.models.RotateWebhookEndpointSecretRequest
import dev.plinth.client.models.UpdateWebhookEndpointRequest
import dev.plinth.client.models.WebhookDelivery
import dev.plinth.client.models.WebhookDeliveryList
import dev.plinth.client.models.WebhookEndpoint
import dev.plinth.client.models.WebhookEndpointList

/** API keys of the caller's organisation: `/v1/api_keys`. */
class ApiKeys internal constructor(private val plinth: Plinth) {
    private val api = APIKeysApi(plinth.base, plinth.httpClient)

    /**
     * `createApiKey`: a key of [mode] (`"sandbox"`, `"live"`; the caller's by default) named [name]; with
     * [permissions] (group to `"none"`, `"read"` or `"write"`, a group left out being none) a restricted key,
     * `rk_test_…`, that may do only that; without, a full key. The secret, [CreatedApiKey.key], is shown once.
     */
    fun create(mode: String? = null, name: String? = null, permissions: Map<String, String>? = null, idempotencyKey: String? = null): CreatedApiKey {
        val m = mode?.let { v -> CreateApiKeyRequest.Mode.values().firstOrNull { it.value == v } ?: CreateApiKeyRequest.Mode.unknown_default_open_api }
        return create(CreateApiKeyRequest(mode = m, name = name, permissions = permissions?.let(::asModel)), idempotencyKey)
    }

    /** `createApiKey` with the generated request model. */
    fun create(params: CreateApiKeyRequest, idempotencyKey: String? = null): CreatedApiKey {
        val body = params.permissions?.let { params.copy(permissions = sent(it)) } ?: params
        val (answer, replayed) = plinth.send { api.createApiKeyWithHttpInfo(idempotencyKey, body) }
        return CreatedApiKey(answer, replayed)
    }

    companion object {
        /**
         * Every group and level as given: one newer than this client is sent too, and one the server does not know is
         * its 400 `parameter_invalid` naming `permissions.<group>`, not a value silently dropped.
         */
        private fun asModel(permissions: Map<String, Any>): CreateApiKeyRequestPermissions =
            CreateApiKeyRequestPermissions().apply { putAll(permissions) }

        /**
         * The generated model is a map (its schema allows other groups) and is sent as its entries alone: its
         * constructor's levels (`accounts = …`) would be left out, so they are copied into the entries.
         */
        private fun sent(p: CreateApiKeyRequestPermissions): CreateApiKeyRequestPermissions {
            val declared = mapOf(
                "accounts" to p.accounts?.value, "transfers" to p.transfers?.value, "transactions" to p.transactions?.value,
                "sandbox" to p.sandbox?.value, "events" to p.events?.value, "webhook_endpoints" to p.webhookEndpoints?.value,
                "api_keys" to p.apiKeys?.value, "requests" to p.requests?.value,
            )
            return asModel(p + declared.filterValues { it != null }.mapValues { it.value!! })
        }
    }

    /** `retrieveApiKey`: the key without its secret. */
    fun retrieve(id: String): ApiKey = plinth.call { api.retrieveApiKeyWithHttpInfo(id) }

    /** `revokeApiKey`: it stops working at once (`revokedAt` set). */
    fun revoke(id: String, idempotencyKey: String? = null): ApiKey = plinth.call { api.revokeApiKeyWithHttpInfo(id, idempotencyKey) }

    /** `listApiKeys`: every key of the caller's mode, newest first, a page of [limit] at a time. */
    fun list(limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<ApiKey> =
        paginate(limit, startingAfter, endingBefore, ::listPage, { it.`data` }, { it.hasMore }, { it.id })

    /** `listApiKeys`: one page. */
    fun listPage(limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): ApiKeyList =
        plinth.call { api.listApiKeysWithHttpInfo(limit, startingAfter, endingBefore) }
}

/** Events: what happened, newest first, numbered by `sequence`. */
class Events internal constructor(private val plinth: Plinth) {
    private val api = EventsApi(plinth.base, plinth.httpClient)

    /** `listEvents`: every event (of [type], created within [created], if given), newest first, a page of [limit] at a time. */
    fun list(type: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null, created: Created? = null): Sequence<Event> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(type, l, a, b, created) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listEvents`: one page. The type goes out as given (the generated API's closed enum could not send a new one). */
    fun listPage(type: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null, created: Created? = null): EventList =
        plinth.get("/v1/events", query(limit, startingAfter, endingBefore, "type" to type, created = created), EventList::class.java)

    /** The live event stream of [type] (all: null), after sequence [after] (null: from the next event), resuming by itself: see [EventStream]. Close it to stop. */
    fun stream(type: String? = null, after: Long? = null, onGap: ((from: Long, to: Long) -> Unit)? = null): EventStream =
        EventStream(plinth.base, plinth.apiKey, java.time.Duration.ofMillis(plinth.httpClient.connectTimeoutMillis.toLong()), type, after, onGap)

    /** `retrieveEvent`. */
    fun retrieve(id: String): Event = plinth.call { api.retrieveEventWithHttpInfo(id) }

    /** `listEventDeliveries`: every delivery of one event, a page at a time. */
    fun listDeliveries(id: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<WebhookDelivery> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listDeliveriesPage(id, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listEventDeliveries`: one page. */
    fun listDeliveriesPage(id: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): WebhookDeliveryList =
        plinth.call { api.listEventDeliveriesWithHttpInfo(id, limit, startingAfter, endingBefore) }
}

/** Where events are sent, signed: `/v1/webhook_endpoints`. */
class WebhookEndpoints internal constructor(private val plinth: Plinth) {
    private val api = WebhooksApi(plinth.base, plinth.httpClient)

    /** `createWebhookEndpoint`: the endpoint and its signing secret, [CreatedWebhookEndpoint.secret], shown once. */
    fun create(params: CreateWebhookEndpointRequest, idempotencyKey: String? = null): CreatedWebhookEndpoint {
        val (answer, replayed) = plinth.send { api.createWebhookEndpointWithHttpInfo(params, idempotencyKey) }
        return CreatedWebhookEndpoint(answer, replayed)
    }

    /** `retrieveWebhookEndpoint`. */
    fun retrieve(id: String): WebhookEndpoint = plinth.call { api.retrieveWebhookEndpointWithHttpInfo(id) }

    /**
     * `updateWebhookEndpoint`: `url`, `enabledEvents`, `description`, `status` from [params], and [metadata] (keys set,
     * a key given `""` removed). The generated request's own `metadata` is a class without fields (its schema is
     * "changes, or `""`"), so the layer sends [metadata] itself.
     */
    fun update(
        id: String,
        params: UpdateWebhookEndpointRequest = UpdateWebhookEndpointRequest(),
        idempotencyKey: String? = null,
        metadata: Map<String, String>? = null,
    ): WebhookEndpoint {
        if (metadata == null) return plinth.call { api.updateWebhookEndpointWithHttpInfo(id, params, idempotencyKey) }
        val body = Serializer.jacksonObjectMapper.convertValue(params, Map::class.java) + ("metadata" to metadata)
        return plinth.request("POST", "/v1/webhook_endpoints/${encode(id)}", body, WebhookEndpoint::class.java, idempotencyKey)
    }

    /** `updateWebhookEndpoint` with `"metadata": ""`: removes every key of its metadata. */
    fun clearMetadata(id: String, idempotencyKey: String? = null): WebhookEndpoint =
        plinth.request("POST", "/v1/webhook_endpoints/${encode(id)}", mapOf("metadata" to ""), WebhookEndpoint::class.java, idempotencyKey)

    /** `deleteWebhookEndpoint`: gone, with its deliveries. */
    fun delete(id: String): DeletedWebhookEndpoint = plinth.call { api.deleteWebhookEndpointWithHttpInfo(id) }

    /** `rotateWebhookEndpointSecret`: a new secret; the previous one signs beside it for `expirePreviousInSeconds`. */
    fun rotateSecret(id: String, params: RotateWebhookEndpointSecretRequest = RotateWebhookEndpointSecretRequest(), idempotencyKey: String? = null): CreatedWebhookEndpoint {
        val (answer, replayed) = plinth.send { api.rotateWebhookEndpointSecretWithHttpInfo(id, idempotencyKey, params) }
        return CreatedWebhookEndpoint(answer, replayed)
    }

    /** `testWebhookEndpoint`: sends a `webhook_endpoint.test` event to this endpoint only. */
    fun test(id: String, idempotencyKey: String? = null): Event = plinth.call { api.testWebhookEndpointWithHttpInfo(id, idempotencyKey) }

    /** `listWebhookEndpoints`: every endpoint, newest first, a page of [limit] at a time. */
    fun list(limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<WebhookEndpoint> =
        paginate(limit, startingAfter, endingBefore, ::listPage, { it.`data` }, { it.hasMore }, { it.id })

    /** `listWebhookEndpoints`: one page. */
    fun listPage(limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): WebhookEndpointList =
        plinth.call { api.listWebhookEndpointsWithHttpInfo(limit, startingAfter, endingBefore) }

    /** `listWebhookEndpointDeliveries`: every delivery to this endpoint (in [status], if given), a page at a time. */
    fun listDeliveries(id: String, status: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<WebhookDelivery> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listDeliveriesPage(id, status, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listWebhookEndpointDeliveries`: one page. The status goes out as given (see [Accounts.listPage]). */
    fun listDeliveriesPage(id: String, status: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): WebhookDeliveryList =
        plinth.get("/v1/webhook_endpoints/${encode(id)}/deliveries", query(limit, startingAfter, endingBefore, "status" to status),
            WebhookDeliveryList::class.java)
}

/** Webhook deliveries (listed from their endpoint or event): `/v1/webhook_deliveries`. */
class WebhookDeliveries internal constructor(private val plinth: Plinth) {
    private val api = WebhooksApi(plinth.base, plinth.httpClient)

    /** `retryWebhookDelivery`: one attempt now, outside the schedule; the delivery with its attempts. */
    fun retry(id: String, idempotencyKey: String? = null): WebhookDelivery =
        plinth.call { api.retryWebhookDeliveryWithHttpInfo(id, idempotencyKey) }
}

/** A path segment, percent-encoded. */
internal fun encode(segment: String): String = java.net.URLEncoder.encode(segment, Charsets.UTF_8).replace("+", "%20")
