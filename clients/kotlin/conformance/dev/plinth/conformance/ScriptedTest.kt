package dev.plinth.conformance

import com.sun.net.httpserver.HttpServer
import dev.plinth.Plinth
import dev.plinth.SecretUnavailableException
import dev.plinth.client.models.CreateAccountRequest
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.time.Duration
import java.util.Collections
import java.util.concurrent.ConcurrentLinkedQueue
import kotlin.system.exitProcess

// What the live scenario cannot provoke, against a scripted server (the JDK's own HttpServer): 503 then 409
// in-progress then success with one Idempotency-Key, Retry-After waited, other 409s not retried, giving up after max
// retries, a caller's key wins, refused connections retried, the timeout, the cursors a list sends (starting_after, or
// ending_before walking newer, with its filter on every page); and the one case where a new key's or
// endpoint's secret is absent (an idempotent replay), which the live server shows only after a lost answer.

private const val ACCOUNT = """{"id":"acct_01M81E6QGW6FY4EAZBPP8CJ63K","object":"fintech.account","type":"business","country":"US","status":"active","status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"livemode":false,"created_at":"2026-11-22T10:53Z"}"""

private data class Reply(val status: Int, val body: String, val headers: Map<String, String> = emptyMap(), val delayMs: Long = 0) {
    companion object {
        fun ok() = Reply(200, ACCOUNT, mapOf("Request-Id" to "req_OK"))
        fun problem(status: Int, code: String, headers: Map<String, String> = emptyMap()) = Reply(
            status,
            """{"type":"/docs/errors#$code","title":"t","status":$status,"detail":"d","code":"$code","request_id":"req_P$status"}""",
            headers,
        )
    }
}

private data class Seen(val method: String, val idempotencyKey: String?, val uri: String = "")

private class Scripted(vararg replies: Reply) : AutoCloseable {
    val script = ConcurrentLinkedQueue(replies.toList())
    val seen: MutableList<Seen> = Collections.synchronizedList(mutableListOf())
    val server: HttpServer = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0).apply {
        createContext("/") { ex ->
            ex.requestBody.readAllBytes()
            seen += Seen(ex.requestMethod, ex.requestHeaders.getFirst("Idempotency-Key"), ex.requestURI.toString())
            val r = script.poll() ?: Reply.ok()
            if (r.delayMs > 0) Thread.sleep(r.delayMs)
            val body = r.body.toByteArray()
            ex.responseHeaders.set("Content-Type", if (r.status == 200) "application/json" else "application/problem+json")
            r.headers.forEach { (k, v) -> ex.responseHeaders.set(k, v) }
            ex.sendResponseHeaders(r.status, body.size.toLong())
            ex.responseBody.use { it.write(body) }
        }
        start()
    }
    val url get() = "http://127.0.0.1:${server.address.port}"
    override fun close() = server.stop(0)
}

private fun client(url: String) = Plinth(apiKey = "sk_test_scripted", baseUrl = url, baseDelay = Duration.ofMillis(10))

private fun business() = CreateAccountRequest(type = CreateAccountRequest.Type.business, country = "US")



private var failures = 0

private fun test(name: String, block: () -> Unit) {
    try {
        block()
        println("ok   scripted: $name")
    } catch (t: Throwable) {
        failures++
        println("FAIL scripted: $name: $t")
    }
}

object ScriptedTest {
    @JvmStatic
    fun main(args: Array<String>) {
        // (No Retry-After: 0 here: OkHttp itself repeats a 503 that says Retry-After: 0, once, with the same request.)
        test("503 then 409 in-progress then success, one Idempotency-Key") {
            Scripted(Reply.problem(503, "service_unavailable"), Reply.problem(409, "idempotency_request_in_progress"), Reply.ok()).use { s ->
                val p = client(s.url)
                val a = p.accounts.create(business())
                check(a.id.startsWith("acct_")) { "id" }
                check(s.seen.size == 3) { "attempts ${s.seen}" }
                val key = s.seen[0].idempotencyKey
                check(key != null && Regex("[0-9a-f-]{36}").matches(key)) { "key $key" }
                check(s.seen.all { it.idempotencyKey == key }) { "keys ${s.seen}" }
                check(p.retryCount == 2L) { "retries ${p.retryCount}" }
                check(p.lastRequestId == "req_OK") { "request id ${p.lastRequestId}" }
            }
        }

        test("each call gets its own key; a caller's key wins") {
            Scripted().use { s ->
                val p = client(s.url)
                p.accounts.create(business())
                p.accounts.create(business())
                p.accounts.create(business(), idempotencyKey = "mine-1")
                check(s.seen[0].idempotencyKey != s.seen[1].idempotencyKey) { "same key twice" }
                check(s.seen[2].idempotencyKey == "mine-1") { "caller's key ${s.seen[2]}" }
            }
        }

        test("Retry-After is waited") {
            Scripted(Reply.problem(429, "rate_limited", mapOf("Retry-After" to "1"))).use { s ->
                val t0 = System.nanoTime()
                client(s.url).accounts.retrieve("acct_x")
                val ms = (System.nanoTime() - t0) / 1_000_000
                check(ms >= 950) { "waited only $ms ms" }
                check(s.seen.size == 2) { "attempts ${s.seen.size}" }
            }
        }

        test("other 409s and 4xx are not retried") {
            Scripted(Reply.problem(409, "account_frozen"), Reply.problem(400, "parameter_invalid")).use { s ->
                val p = client(s.url)
                var e = expectError { p.accounts.create(business()) }
                check(e.status == 409 && e.code == "account_frozen") { "got $e" }
                e = expectError { p.accounts.create(business()) }
                check(e.status == 400 && e.requestId == "req_P400") { "got $e" }
                check(s.seen.size == 2 && p.retryCount == 0L) { "attempts ${s.seen.size}" }
            }
        }

        test("gives up after max retries with the last error") {
            val r = Reply.problem(503, "service_unavailable")
            Scripted(r, r, r, r, r).use { s ->
                val p = client(s.url)
                val e = expectError { p.accounts.retrieve("acct_x") }
                check(e.status == 503 && e.code == "service_unavailable") { "got $e" }
                check(s.seen.size == 1 + Plinth.DEFAULT_MAX_RETRIES) { "attempts ${s.seen.size}" }
            }
        }

        test("refused connections are retried, then connection_error") {
            val port = ServerSocket(0).use { it.localPort }
            val p = client("http://127.0.0.1:$port")
            val e = expectError { p.accounts.create(business()) }
            check(e.status == 0 && e.code == "connection_error") { "got $e" }
            check(p.retryCount == Plinth.DEFAULT_MAX_RETRIES.toLong()) { "retries ${p.retryCount}" }
        }

        test("the timeout applies") {
            Scripted(Reply(200, ACCOUNT, delayMs = 1500)).use { s ->
                val p = Plinth(apiKey = "sk_test_scripted", baseUrl = s.url, timeout = Duration.ofMillis(300), maxRetries = 0)
                val t0 = System.nanoTime()
                val e = expectError { p.accounts.retrieve("acct_x") }
                val ms = (System.nanoTime() - t0) / 1_000_000
                check(e.status == 0 && ms < 1400) { "got $e after $ms ms" }
            }
        }

        test("list follows starting_after (or ending_before, walking newer) with the filter on every page") {
            val page1 = """{"object":"list","data":[${ACCOUNT.replace("63K", "633")},${ACCOUNT.replace("63K", "632")}],"has_more":true}"""
            val page2 = """{"object":"list","data":[${ACCOUNT.replace("63K", "631")}],"has_more":false}"""
            Scripted(Reply(200, page1), Reply(200, page2), Reply(200, page1), Reply(200, page2)).use { s ->
                val p = client(s.url)
                val ids = p.accounts.list(status = "frozen", limit = 2).map { it.id.takeLast(3) }.toList()
                check(ids == listOf("633", "632", "631")) { "ids $ids" }
                p.accounts.list(limit = 2, endingBefore = "acct_0").toList()
                val uris = s.seen.map { it.uri }
                check(uris.size == 4) { "requests $uris" }
                check("status=frozen" in uris[0] && "limit=2" in uris[0] && "starting_after" !in uris[0]) { "first page ${uris[0]}" }
                check("status=frozen" in uris[1] && "starting_after=acct_01M81E6QGW6FY4EAZBPP8CJ632" in uris[1]) { "second page ${uris[1]}" }
                check("ending_before=acct_0" in uris[2] && "ending_before=acct_01M81E6QGW6FY4EAZBPP8CJ633" in uris[3] && "starting_after" !in uris[3]) {
                    "walking newer ${uris.subList(2, 4)}"
                }
            }
        }

        test("a secret is a plain string; an idempotent replay says it has none") {
            val key = """{"id":"key_01M81E6QGW6FY4EAZBPP8CJ63K","object":"api_key","mode":"sandbox","hint":"sk_test_…abcd","name":null,""" +
                """"livemode":false,"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"key":"""
            val endpoint = """{"id":"we_01M81E6QGW6FY4EAZBPP8CJ63K","object":"webhook_endpoint","url":"https://example.com/h",""" +
                """"enabled_events":["*"],"description":null,"status":"enabled","disabled_reason":null,"livemode":false,""" +
                """"created_at":"2026-11-22T10:53Z","secret":"""
            val replayed = mapOf("Idempotent-Replayed" to "true")
            Scripted(Reply(200, "$key\"sk_test_abcd\"}"), Reply(200, "${key}null}", replayed), Reply(200, "${endpoint}null}", replayed)).use { s ->
                val p = client(s.url)
                val fresh = p.apiKeys.create()
                check(!fresh.replayed && fresh.key == "sk_test_abcd") { "fresh $fresh" }
                val again = p.apiKeys.create(idempotencyKey = "k")
                check(again.replayed && again.id == "key_01M81E6QGW6FY4EAZBPP8CJ63K") { "replay $again" }
                val e = try {
                    again.key
                    null
                } catch (e: SecretUnavailableException) {
                    e
                }
                check(e != null && e.objectId == again.id && "revoke" in e.message!!) { "key of a replay: $e" }
                val rotated = p.webhookEndpoints.rotateSecret("we_01M81E6QGW6FY4EAZBPP8CJ63K")
                val f = try {
                    rotated.secret
                    null
                } catch (e: SecretUnavailableException) {
                    e
                }
                check(rotated.replayed && f != null && "rotate" in f.message!!) { "secret of a replay: $f" }
            }
        }

        exitProcess(if (failures == 0) 0 else 1)
    }
}
