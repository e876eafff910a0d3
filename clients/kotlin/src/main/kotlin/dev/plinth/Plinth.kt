package dev.plinth

import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import dev.plinth.client.apis.APIKeysApi
import dev.plinth.client.apis.FintechAccountsApi
import dev.plinth.client.apis.FintechTransactionsApi
import dev.plinth.client.apis.FintechTransfersApi
import dev.plinth.client.infrastructure.ApiResponse
import dev.plinth.client.infrastructure.ClientError
import dev.plinth.client.infrastructure.Serializer
import dev.plinth.client.infrastructure.ServerError
import dev.plinth.client.infrastructure.Success
import dev.plinth.client.models.Account
import dev.plinth.client.models.AccountList
import dev.plinth.client.models.ApiKey
import dev.plinth.client.models.ApiKeyList
import dev.plinth.client.models.CreateAccountRequest
import dev.plinth.client.models.CreateApiKeyRequest
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.NewApiKey
import dev.plinth.client.models.SandboxSignup
import dev.plinth.client.models.SandboxSignupRequest
import dev.plinth.client.models.SimulateDepositRequest
import dev.plinth.client.models.Transaction
import dev.plinth.client.models.TransactionList
import dev.plinth.client.models.Transfer
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
 * for (a in plinth.accounts.list(pageSize = 100)) println(a.id)
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

    private val base = baseUrl.trimEnd('/')

    /** The `Request-Id` of the last response this thread received (success or error). */
    val lastRequestId: String? get() = lastRequestIdHolder.get()

    /** How many retries this client has made so far. */
    val retryCount: Long get() = retries.get()

    val accounts = Accounts()
    val apiKeys = ApiKeys()

    val transfers = Transfers()

    /** Simulations that only sandbox keys may run. */
    val sandbox = Sandbox()

    inner class Accounts internal constructor() {
        private val api = FintechAccountsApi(base, httpClient)

        fun create(params: CreateAccountRequest, idempotencyKey: String? = null): Account =
            call { api.createAccountWithHttpInfo(params, idempotencyKey) }

        fun retrieve(id: String): Account = call { api.retrieveAccountWithHttpInfo(id) }

        fun listPage(limit: Int? = null, startingAfter: String? = null): AccountList =
            call { api.listAccountsWithHttpInfo(limit, startingAfter, null, null) }

        /** Every account, newest first, fetching pages of [pageSize] as the iteration goes. */
        fun list(pageSize: Int? = null): Sequence<Account> =
            paginate({ after -> listPage(pageSize, after) }, { it.`data` }, { it.hasMore }, { it.id })

        private val transactionsApi = FintechTransactionsApi(base, httpClient)

        /** One page of an account's transactions, newest first. */
        fun transactionsPage(id: String, limit: Int? = null, startingAfter: String? = null): TransactionList =
            call { transactionsApi.listAccountTransactionsWithHttpInfo(id, limit, startingAfter, null) }

        /** Every transaction of an account, newest first, fetching pages of [pageSize] as the iteration goes. */
        fun transactions(id: String, pageSize: Int? = null): Sequence<Transaction> =
            paginate({ after -> transactionsPage(id, pageSize, after) }, { it.`data` }, { it.hasMore }, { it.id })
    }

    inner class Transfers internal constructor() {
        private val api = FintechTransfersApi(base, httpClient)

        /** Synchronous: the `posted` transfer. One Idempotency-Key, reused by retries, so money moves once. */
        fun create(params: CreateTransferRequest, idempotencyKey: String? = null): Transfer =
            call { api.createTransferWithHttpInfo(params, idempotencyKey) }

        fun retrieve(id: String): Transfer = call { api.retrieveTransferWithHttpInfo(id) }
    }

    inner class Sandbox internal constructor() {
        private val api = FintechTransactionsApi(base, httpClient)

        /** Money in from nowhere, for testing: the credit transaction. */
        fun deposit(accountId: String, params: SimulateDepositRequest, idempotencyKey: String? = null): Transaction =
            call { api.simulateDepositWithHttpInfo(accountId, params, idempotencyKey) }
    }

    inner class ApiKeys internal constructor() {
        private val api = APIKeysApi(base, httpClient)

        fun create(params: CreateApiKeyRequest? = null, idempotencyKey: String? = null): NewApiKey =
            call { api.createApiKeyWithHttpInfo(idempotencyKey, params ?: CreateApiKeyRequest()) }

        fun revoke(id: String): ApiKey = call { api.revokeApiKeyWithHttpInfo(id, null) }

        fun listPage(limit: Int? = null, startingAfter: String? = null): ApiKeyList =
            call { api.listApiKeysWithHttpInfo(limit, startingAfter, null) }

        fun list(pageSize: Int? = null): Sequence<ApiKey> =
            paginate({ after -> listPage(pageSize, after) }, { it.`data` }, { it.hasMore }, { it.id })
    }

    /**
     * The lowest level: any method and path with any JSON body (a Map, a model, or null), decoded into [type].
     * Retries, idempotency keys and errors work as for every other call.
     */
    fun <T> request(method: String, path: String, body: Any?, type: Class<T>, idempotencyKey: String? = null): T {
        val mapper = Serializer.jacksonObjectMapper
        val payload = body?.let { mapper.writeValueAsBytes(it).toRequestBody("application/json".toMediaType()) }
        val builder = Request.Builder().url(base + path).header("Accept", "application/json")
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
    fun <T> call(block: () -> ApiResponse<T?>): T {
        val response = try {
            block()
        } catch (e: IOException) {
            throw connectionError(e)
        }
        @Suppress("UNCHECKED_CAST")
        return when (response) {
            is Success<*> -> response.data as T
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

        /** `POST /v1/sandbox/signup` (no key): a new sandbox organisation and its first key. */
        fun signup(baseUrl: String = DEFAULT_BASE_URL, name: String? = null): SandboxSignup {
            val anonymous = Plinth(null, baseUrl)
            val api = APIKeysApi(anonymous.base, anonymous.httpClient)
            return anonymous.call { api.sandboxSignupWithHttpInfo(SandboxSignupRequest(name = name)) }
        }

        /** Auto-pagination over any list: `starting_after` = the last id while `has_more`. */
        fun <L, T> paginate(fetch: (String?) -> L, data: (L) -> List<T>, hasMore: (L) -> Boolean, id: (T) -> String): Sequence<T> =
            sequence {
                var after: String? = null
                while (true) {
                    val page = fetch(after)
                    val items = data(page)
                    yieldAll(items)
                    if (!hasMore(page) || items.isEmpty()) break
                    after = id(items.last())
                }
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
