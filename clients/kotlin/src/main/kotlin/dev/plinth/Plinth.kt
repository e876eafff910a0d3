package dev.plinth

import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import dev.plinth.client.apis.APIKeysApi
import dev.plinth.client.infrastructure.ApiResponse
import dev.plinth.client.infrastructure.ClientError
import dev.plinth.client.infrastructure.Serializer
import dev.plinth.client.infrastructure.ServerError
import dev.plinth.client.infrastructure.Success
import dev.plinth.client.models.SandboxSignupRequest
import okhttp3.HttpUrl.Companion.toHttpUrl
import okhttp3.MediaType.Companion.toMediaType
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody
import java.io.IOException
import java.time.Duration
import java.util.concurrent.atomic.AtomicLong

/**
 * The Plinth client: the generated API classes (`dev.plinth.client.apis.*`) on an OkHttp client that retries and
 * sends idempotency keys, plus pagination and one [PlinthException].
 *
 * ```
 * val plinth = Plinth(apiKey = "sk_test_…", baseUrl = "http://127.0.0.1:8080")
 * val account = plinth.accounts.create(CreateAccountRequest(type = CreateAccountRequest.Type.business, country = "US"))
 * for (a in plinth.accounts.list(limit = 100)) println(a.id)
 * ```
 */
class Plinth(
    apiKey: String?,
    val baseUrl: String = DEFAULT_BASE_URL,
    timeout: Duration = DEFAULT_TIMEOUT,
    maxRetries: Int = DEFAULT_MAX_RETRIES,
    baseDelay: Duration = Duration.ofMillis(500),
) {
    private val retries = AtomicLong()
    private val lastRequestIdHolder = ThreadLocal<String?>()

    /** The OkHttp client every call goes through; pass it to any generated API class you use directly. */
    val httpClient: OkHttpClient = OkHttpClient.Builder()
        .connectTimeout(timeout)
        .readTimeout(timeout)
        .writeTimeout(timeout)
        .addInterceptor(RetryInterceptor(apiKey, maxRetries.coerceAtLeast(0), baseDelay, retries, lastRequestIdHolder))
        .build()

    internal val base = baseUrl.trimEnd('/')

    /** For the event stream, which does not go through [httpClient]'s retrying interceptor. */
    internal val apiKey: String? = apiKey

    /** The `Request-Id` of the last response this thread received (success or error). */
    val lastRequestId: String? get() = lastRequestIdHolder.get()

    /** How many retries this client has made so far. */
    val retryCount: Long get() = retries.get()

    val apiKeys = ApiKeys(this)
    val accounts = Accounts(this)
    val transactions = Transactions(this)
    val transfers = Transfers(this)

    /** Simulations that only sandbox keys may run. */
    val sandbox = Sandbox(this)
    val events = Events(this)
    val webhookEndpoints = WebhookEndpoints(this)
    val webhookDeliveries = WebhookDeliveries(this)

    /** The request log: what was asked with this organisation's keys, and what it was answered. */
    val requests = Requests(this)

    /** An account's bank account numbers (its 12 digits shown once, at creation). */
    val accountNumbers = AccountNumbers(this)

    /** Accounts at other banks that payments go to. */
    val externalAccounts = ExternalAccounts(this)

    /** Money sent (and received) over ACH, wire and RTP. */
    val payments = Payments(this)

    /** The hash chain of events, its signed checkpoint and the key that signs it. */
    val audit = Audit(this)

    /**
     * The lowest level: any method and path with any JSON body (a Map, a model, or null), decoded into [type].
     * Retries, idempotency keys and errors work as for every other call.
     */
    fun <T> request(method: String, path: String, body: Any?, type: Class<T>, idempotencyKey: String? = null): T =
        exchange(Request.Builder().url(base + path), method, body, type, idempotencyKey)

    /**
     * A GET with query parameters (null ones left out), decoded into [type]. Names are sent as given, so that
     * `created[gte]` keeps its brackets ([query] encodes what a name carries); values are percent-encoded.
     */
    internal fun <T> get(path: String, query: Map<String, Any?>, type: Class<T>): T {
        val url = (base + path).toHttpUrl().newBuilder()
        query.forEach { (name, value) -> if (value != null) url.addEncodedQueryParameter(name, encodeQuery(value.toString())) }
        return exchange(Request.Builder().url(url.build()), "GET", null, type, null)
    }

    private fun <T> exchange(builder: Request.Builder, method: String, body: Any?, type: Class<T>, idempotencyKey: String?): T {
        val mapper = Serializer.jacksonObjectMapper
        val payload = body?.let { mapper.writeValueAsBytes(it).toRequestBody("application/json".toMediaType()) }
        builder.header("Accept", "application/json")
            .method(method, payload ?: if (method == "POST" || method == "PUT" || method == "PATCH") ByteArray(0).toRequestBody() else null)
        idempotencyKey?.let { builder.header("Idempotency-Key", it) }
        val response = try {
            httpClient.newCall(builder.build()).execute()
        } catch (e: IOException) {
            throw connectionError(e)
        }
        response.use {
            val text = it.body?.string().orEmpty()
            if (!it.isSuccessful) throw problem(it.code, text, it.headers.toMultimap(), null)
            return mapper.readValue(text, type)
        }
    }

    /** Runs a generated `...WithHttpInfo` call: its body, or the one [PlinthException]. */
    fun <T> call(block: () -> ApiResponse<T?>): T = send(block).first

    /** The same, with whether the answer is an idempotent replay (`Idempotent-Replayed: true`). */
    internal fun <T> send(block: () -> ApiResponse<T?>): Pair<T, Boolean> {
        val response = try {
            block()
        } catch (e: IOException) {
            throw connectionError(e)
        }
        @Suppress("UNCHECKED_CAST")
        return when (response) {
            is Success<*> -> Pair(response.data as T, response.headers.any { (name, values) ->
                name.equals("Idempotent-Replayed", ignoreCase = true) && "true" in values
            })
            is ClientError<*> -> throw problem(response.statusCode, response.body as String?, response.headers, null)
            is ServerError<*> -> throw problem(response.statusCode, response.body as String?, response.headers, null)
            else -> throw PlinthException(response.statusCode, "unexpected_response", null, emptyList(), null, null, null,
                "unexpected ${response.responseType} response", response.headers)
        }
    }

    companion object {
        const val DEFAULT_BASE_URL = "http://127.0.0.1:8080"
        val DEFAULT_TIMEOUT: Duration = Duration.ofSeconds(30)
        const val DEFAULT_MAX_RETRIES = 3

        /** Tolerant decoding for everything this layer parses itself. */
        private val mapper: ObjectMapper = ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)

        /** `POST /v1/sandbox/signup` (no key): a new sandbox organisation and its first key, [SignUp.key]. */
        @JvmStatic
        fun signUp(baseUrl: String = DEFAULT_BASE_URL, name: String? = null): SignUp {
            val anonymous = Plinth(null, baseUrl)
            val api = APIKeysApi(anonymous.base, anonymous.httpClient)
            val (answer, replayed) = anonymous.send { api.sandboxSignupWithHttpInfo(SandboxSignupRequest(name = name)) }
            return SignUp(answer.orgId, CreatedApiKey(answer.apiKey, replayed))
        }

        private fun connectionError(e: IOException) = PlinthException(0, "connection_error", null, emptyList(), null,
            null, "Connection error", e.toString(), cause = e)

        internal fun problem(status: Int, body: String?, headers: Map<String, List<String>>, cause: Throwable?): PlinthException {
            val headerRequestId = headers.entries.firstOrNull { it.key.equals("Request-Id", ignoreCase = true) }?.value?.firstOrNull()
            val p: JsonNode? = try {
                if (body.isNullOrBlank()) null else mapper.readTree(body)
            } catch (e: Exception) {
                null
            }
            if (p == null || !p.isObject) {
                return PlinthException(status, "unknown", null, emptyList(), headerRequestId, null, null, body, headers, body, cause)
            }
            fun JsonNode.text(field: String): String? = get(field)?.takeUnless { it.isNull }?.asText()
            val errors = p.path("errors").map { PlinthException.ErrorDetail(it.text("code"), it.text("param"), it.text("detail")) }
            return PlinthException(status, p.text("code") ?: "unknown", p.text("param"), errors,
                p.text("request_id") ?: headerRequestId, p.text("type"), p.text("title"), p.text("detail"), headers, body, cause)
        }
    }
}
