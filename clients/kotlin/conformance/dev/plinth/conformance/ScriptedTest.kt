package dev.plinth.conformance

import com.sun.net.httpserver.HttpServer
import dev.plinth.Created
import dev.plinth.Plinth
import dev.plinth.SecretUnavailableException
import dev.plinth.client.models.CreateAccountRequest
import dev.plinth.client.models.UpdateWebhookEndpointRequest
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

internal const val ACCOUNT = """{"id":"acct_01M81E6QGW6FY4EAZBPP8CJ63K","object":"fintech.account","type":"business","country":"US","status":"active","status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}"""

internal const val TRANSFER = """{"id":"tr_01M81E6QGW6FY4EAZBPP8CJ63K","object":"fintech.transfer","from_account_id":"acct_1","to_account_id":"acct_2","amount":4000,"currency":"USD","description":null,"status":"pending","pending":true,"posted_amount":null,"expires_at":"2026-11-22T11:53Z","resolved_at":null,"metadata":{"order":"A-1"},"livemode":false,"created_at":"2026-11-22T10:53Z"}"""

internal data class Reply(val status: Int, val body: String, val headers: Map<String, String> = emptyMap(), val delayMs: Long = 0) {
    companion object {
        fun ok() = Reply(200, ACCOUNT, mapOf("Request-Id" to "req_OK"))
        fun problem(status: Int, code: String, headers: Map<String, String> = emptyMap()) = Reply(
            status,
            """{"type":"/docs/errors#$code","title":"t","status":$status,"detail":"d","code":"$code","request_id":"req_P$status"}""",
            headers,
        )
    }
}

internal data class Seen(val method: String, val idempotencyKey: String?, val uri: String = "", val body: String = "")

internal class Scripted(vararg replies: Reply) : AutoCloseable {
    val script = ConcurrentLinkedQueue(replies.toList())
    val seen: MutableList<Seen> = Collections.synchronizedList(mutableListOf())
    val server: HttpServer = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0).apply {
        createContext("/") { ex ->
            val received = String(ex.requestBody.readAllBytes(), Charsets.UTF_8)
            seen += Seen(ex.requestMethod, ex.requestHeaders.getFirst("Idempotency-Key"), ex.requestURI.toString(), received)
            val r = script.poll() ?: if (ex.requestURI.path.contains("/transfers/")) Reply(200, TRANSFER) else Reply.ok()
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

internal fun client(url: String) = Plinth(apiKey = "sk_test_scripted", baseUrl = url, baseDelay = Duration.ofMillis(10))

private fun business() = CreateAccountRequest(type = CreateAccountRequest.Type.business, country = "US")



private var failures = 0

internal fun test(name: String, block: () -> Unit) {
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

        test("filters go out as created[gte]=… and metadata[key]=value on every page") {
            val page1 = """{"object":"list","data":[${TRANSFER.replace("63K", "633")}],"has_more":true}"""
            val page2 = """{"object":"list","data":[${TRANSFER.replace("63K", "632")}],"has_more":false}"""
            val empty = """{"object":"list","data":[],"has_more":false}"""
            Scripted(Reply(200, page1), Reply(200, page2), Reply(200, empty), Reply(200, empty), Reply(200, empty)).use { s ->
                val p = client(s.url)
                val n = p.transfers.list(accountId = "acct_1", limit = 1, status = "pending",
                    created = Created(gte = "2026-11-24T00:00Z", lt = "2026-11-25T00:00:00Z"), metadata = mapOf("order id" to "A-1/ü")).count()
                check(n == 2) { "transfers $n" }
                p.events.listPage(type = "fintech.transfer.posted", created = Created(gt = "2026-11-24T09:30:00+01:00"))
                p.transactions.listPage("acct_1", created = Created(lte = "2026-11-24T00:00Z"))
                p.accounts.listPage(status = "active", metadata = mapOf("customer" to "c-42"))
                val uris = s.seen.map { it.uri }
                for (uri in uris.subList(0, 2)) {
                    check(uri.startsWith("/v1/fintech/transfers?") && "account_id=acct_1" in uri && "status=pending" in uri &&
                        "created[gte]=2026-11-24T00%3A00Z" in uri && "created[lt]=2026-11-25T00%3A00%3A00Z" in uri &&
                        "metadata[order%20id]=A-1%2F%C3%BC" in uri && "limit=1" in uri && "created[gt]" !in uri) { "transfers page $uri" }
                }
                check("starting_after=tr_01M81E6QGW6FY4EAZBPP8CJ633" in uris[1]) { "second page ${uris[1]}" }
                check(uris[2].startsWith("/v1/events?") && "type=fintech.transfer.posted" in uris[2] &&
                    "created[gt]=2026-11-24T09%3A30%3A00%2B01%3A00" in uris[2]) { "events ${uris[2]}" }
                check(uris[3].startsWith("/v1/fintech/accounts/acct_1/transactions?") && "created[lte]=2026-11-24T00%3A00Z" in uris[3]) {
                    "transactions ${uris[3]}"
                }
                check(uris[4].startsWith("/v1/fintech/accounts?") && "status=active" in uris[4] && "metadata[customer]=c-42" in uris[4]) {
                    "accounts ${uris[4]}"
                }
            }
        }

        test("the request log sends status, method and created[…] on every page, and retrieves by id") {
            val entry = """{"id":"req_2","object":"request_log","method":"POST","route":"/v1/fintech/accounts",""" +
                """"path":"/v1/fintech/accounts","status":409,"error_code":"account_frozen","duration_ms":1.5,"api_key_id":"key_1",""" +
                """"api_key_hint":"sk_test_…abcd","idempotency_key":null,"idempotent_replayed":false,"count":null,"source":"api",""" +
                """"body":"{\"type\":\"business\"}","body_truncated":false,"response_body":null,"response_truncated":false,"query":null,"bodies_hidden":false,"error_detail":null,"error_param":null,"livemode":false,"created_at":"2026-11-25T09:00:00.000Z"}"""
            val page1 = """{"object":"list","data":[$entry],"has_more":true}"""
            val page2 = """{"object":"list","data":[],"has_more":false}"""
            Scripted(Reply(200, page1), Reply(200, page2), Reply(200, entry)).use { s ->
                val p = client(s.url)
                val created = Created(gte = java.time.Instant.parse("2026-11-25T09:00:00Z").toString(), lt = "2026-11-26T00:00Z")
                val ids = p.requests.list(status = "409", method = "POST", created = created, limit = 1).map { it.id }.toList()
                check(ids == listOf("req_2")) { "entries $ids" }
                val one = p.requests.retrieve("req_2")
                check(one.id == "req_2" && one.body == """{"type":"business"}""" && one.status == 409) { "retrieved $one" }
                val filters = "limit=1&status=409&method=POST&created[gte]=2026-11-25T09%3A00%3A00Z&created[lt]=2026-11-26T00%3A00Z"
                val want = listOf("/v1/requests?$filters", "/v1/requests?" + filters.replace("limit=1&", "limit=1&starting_after=req_2&"), "/v1/requests/req_2")
                check(s.seen.map { it.uri } == want) { "requests ${s.seen.map { it.uri }}" }
            }
        }

        test("metadata updates send changes or \"\", a post its amount or nothing") {
            val endpoint = """{"id":"we_1","object":"webhook_endpoint","url":"https://example.com/h","enabled_events":["*"],""" +
                """"description":"d","status":"enabled","disabled_reason":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}"""
            Scripted(Reply.ok(), Reply.ok(), Reply(200, TRANSFER), Reply(200, TRANSFER), Reply(200, endpoint), Reply(200, endpoint)).use { s ->
                val p = client(s.url)
                p.accounts.update("acct_1", linkedMapOf("customer" to "c-42", "old" to ""))
                p.accounts.clearMetadata("acct_1")
                p.transfers.update("tr_1", mapOf("order" to ""))
                p.transfers.clearMetadata("tr_1")
                p.webhookEndpoints.update("we_1", UpdateWebhookEndpointRequest(description = "d"), metadata = mapOf("team" to ""))
                p.webhookEndpoints.clearMetadata("we_1")
                p.transfers.post("tr_1")
                p.transfers.post("tr_1", amount = 2500)
                p.transfers.void("tr_1")
                p.sandbox.expireTransfer("tr_1")
                val sent = s.seen.map { "${it.method} ${it.uri} ${it.body}" }
                val expected = listOf(
                    """POST /v1/fintech/accounts/acct_1 {"metadata":{"customer":"c-42","old":""}}""",
                    """POST /v1/fintech/accounts/acct_1 {"metadata":""}""",
                    """POST /v1/fintech/transfers/tr_1 {"metadata":{"order":""}}""",
                    """POST /v1/fintech/transfers/tr_1 {"metadata":""}""",
                    """POST /v1/webhook_endpoints/we_1 {"description":"d","metadata":{"team":""}}""",
                    """POST /v1/webhook_endpoints/we_1 {"metadata":""}""",
                    """POST /v1/fintech/transfers/tr_1/post {}""",
                    """POST /v1/fintech/transfers/tr_1/post {"amount":2500}""",
                    "POST /v1/fintech/transfers/tr_1/void ",
                    "POST /v1/sandbox/fintech/transfers/tr_1/expire ",
                )
                check(sent == expected) { "sent $sent" }
                check(s.seen.all { it.idempotencyKey != null }) { "a POST without an Idempotency-Key" }
            }
        }

        test("a secret is a plain string; an idempotent replay says it has none") {
            val key = """{"id":"key_01M81E6QGW6FY4EAZBPP8CJ63K","object":"api_key","mode":"sandbox","hint":"sk_test_…abcd","name":null,""" +
                """"livemode":false,"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"permissions":null,"key":"""
            val endpoint = """{"id":"we_01M81E6QGW6FY4EAZBPP8CJ63K","object":"webhook_endpoint","url":"https://example.com/h",""" +
                """"enabled_events":["*"],"description":null,"status":"enabled","disabled_reason":null,"livemode":false,""" +
                """"metadata":{},"created_at":"2026-11-22T10:53Z","secret":"""
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

        // docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only.
        test("an account number is a plain string once; an idempotent replay says it has none") {
            val number = """{"id":"an_1","object":"fintech.account_number","account_id":"acct_1","routing_number":"110000000",""" +
                """"account_number_last4":"9012","name":null,"status":"active","inbound_debits":"allowed","livemode":false,""" +
                """"created_at":"2026-11-28T10:00Z","account_number":"""
            val replayed = mapOf("Idempotent-Replayed" to "true")
            Scripted(Reply(200, "$number\"123456789012\"}"), Reply(200, "${number}null}", replayed), Reply(200, "${number}null}")).use { s ->
                val p = client(s.url)
                val request = dev.plinth.client.models.CreateAccountNumberRequest(accountId = "acct_1")
                val fresh = p.accountNumbers.create(request)
                check(!fresh.replayed && fresh.accountNumber == "123456789012" && "123456789012" !in fresh.toString()) { "fresh $fresh" }
                val again = p.accountNumbers.create(request, idempotencyKey = "k")
                check(again.replayed && again.accountNumberLast4 == "9012") { "replay $again" }
                val e = try {
                    again.accountNumber
                    null
                } catch (e: SecretUnavailableException) {
                    e
                }
                check(e != null && e.objectId == "an_1" && "disable" in e.message!!) { "number of a replay: $e" }
                check(p.accountNumbers.retrieve("an_1").accountNumber == null) { "retrieved" }
            }
        }

        scriptedMoney()
        scriptedKeys()
        exitProcess(if (failures == 0) 0 else 1)
    }
}
