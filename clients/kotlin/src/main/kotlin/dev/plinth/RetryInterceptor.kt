package dev.plinth

import com.fasterxml.jackson.databind.ObjectMapper
import okhttp3.Interceptor
import okhttp3.RequestBody.Companion.toRequestBody
import okhttp3.Response
import java.io.IOException
import java.net.ConnectException
import java.time.Duration
import java.util.UUID
import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.atomic.AtomicLong

/**
 * The OkHttp application interceptor under every generated call:
 *  - adds `Authorization: Bearer <key>`; sends no Content-Type with an empty body;
 *  - adds one `Idempotency-Key` (UUID v4) to every authenticated POST that has none, the same on every attempt;
 *  - retries connection errors and timeouts, 409 `idempotency_request_in_progress`, 429 and 5xx, at most
 *    [maxRetries] times, waiting `Retry-After` seconds when given, else exponential backoff with full jitter;
 *  - records the `Request-Id` of the last response on the calling thread.
 */
internal class RetryInterceptor(
    private val apiKey: String?,
    private val maxRetries: Int,
    private val baseDelay: Duration,
    private val retries: AtomicLong,
    private val lastRequestId: ThreadLocal<String?>,
) : Interceptor {
    override fun intercept(chain: Interceptor.Chain): Response {
        var request = chain.request()
        // A POST without a body (revoking a key) must not claim to be JSON: Plinth refuses an empty
        // application/json body as body_malformed.
        val body = request.body
        if (body != null && body.contentLength() == 0L && body.contentType() != null) {
            request = request.newBuilder().method(request.method, ByteArray(0).toRequestBody(null)).build()
        }
        if (apiKey != null && request.header("Authorization") == null) {
            request = request.newBuilder().header("Authorization", "Bearer $apiKey").build()
        }
        if (request.method == "POST" && request.header("Idempotency-Key") == null && request.header("Authorization") != null) {
            request = request.newBuilder().header("Idempotency-Key", UUID.randomUUID().toString()).build()
        }
        // A POST without a key (only the unauthenticated sign-up, which refuses one) is retried only where the
        // server cannot have executed it: a refused connection or a 429.
        val safe = request.method != "POST" || request.header("Idempotency-Key") != null
        var attempt = 0
        while (true) {
            val response = try {
                chain.proceed(request)
            } catch (e: IOException) {
                if (attempt >= maxRetries || !(safe || e is ConnectException)) throw e
                pause(null, attempt++)
                continue
            }
            response.header("Request-Id")?.let { lastRequestId.set(it) }
            if (attempt < maxRetries && (safe || response.code == 429) && shouldRetry(response)) {
                val retryAfter = response.header("Retry-After")
                response.close()
                pause(retryAfter, attempt++)
                continue
            }
            return response
        }
    }

    private fun shouldRetry(response: Response): Boolean = when {
        response.code == 429 || response.code >= 500 -> true
        response.code == 409 -> try {
            JSON.readTree(response.peekBody(65536).string())?.path("code")?.asText() == "idempotency_request_in_progress"
        } catch (e: Exception) {
            false
        }
        else -> false
    }

    private fun pause(retryAfter: String?, attempt: Int) {
        retries.incrementAndGet()
        val given = retryAfter?.trim()?.toLongOrNull()?.let { minOf(it * 1000, 60_000) }
        val ms = given ?: run {
            val cap = baseDelay.toMillis() * (1L shl minOf(attempt, 10))
            ThreadLocalRandom.current().nextLong(cap / 2, cap + 1)
        }
        Thread.sleep(ms)
    }

    private companion object {
        val JSON = ObjectMapper()
    }
}
