package dev.plinth.conformance

import dev.plinth.Plinth
import dev.plinth.PlinthException
import dev.plinth.Webhook
import dev.plinth.WebhookVerificationException
import com.fasterxml.jackson.core.type.TypeReference
import com.fasterxml.jackson.databind.ObjectMapper
import dev.plinth.client.models.CreateWebhookEndpointRequest
import dev.plinth.client.models.Event
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import dev.plinth.client.models.Account
import dev.plinth.client.models.CreateAccountRequest
import dev.plinth.client.models.CreateAccountRequestKyb
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.SimulateDepositRequest
import java.util.UUID
import kotlin.system.exitProcess

// The clients conformance scenario (clients/README.md, steps 1–27), through the Kotlin client's public API;
// steps 13–19 are in Steps13To19.kt, 20–21 in Steps20To21.kt, 22 in Step22.kt, 23 in Step23.kt, 24 in Step24.kt,
// 25 in Step25.kt, 26 in Step26.kt, 27 in Step27.kt.

private fun env(name: String): String = System.getenv(name)?.takeIf { it.isNotEmpty() } ?: error("$name is not set")



internal fun business(country: String, kyb: CreateAccountRequestKyb? = null) =
    CreateAccountRequest(type = CreateAccountRequest.Type.business, country = country, kyb = kyb)

private var failures = 0

internal fun step(name: String, block: () -> Unit) {
    try {
        block()
        println("ok   $name")
    } catch (t: Throwable) {
        failures++
        println("FAIL $name: $t")
    }
}

fun main() {
    val url = env("PLINTH_URL")
    val proxyUrl = env("PLINTH_PROXY_URL")
    val limitedUrl = env("PLINTH_LIMITED_URL")
    val receiverUrl = env("PLINTH_RECEIVER_URL")
    lateinit var key: String
    lateinit var plinth: Plinth
    val created = mutableListOf<String>()
    var transferId = ""
    var firstRequestId = "" // step 2's create, which step 22 finds in the request log
    var endpoint = Scenario.Endpoint("", "", "")

    step("1 sign up") {
        key = Plinth.signUp(url).key
        check(key.startsWith("sk_test_")) { "key $key" }
        plinth = Plinth(apiKey = key, baseUrl = url)
    }
    if (failures > 0) exitProcess(1)

    step("2 create account, Request-Id exposed") {
        val a = plinth.accounts.create(business("US"))
        check(a.status == "active") { "status ${a.status}" }
        check(a.availableBalance.amount == 0L) { "amount ${a.availableBalance.amount}" }
        check(a.availableBalance.currency == "USD") { "currency ${a.availableBalance.currency}" }
        check(a.id.startsWith("acct_")) { "id ${a.id}" }
        check(plinth.lastRequestId?.startsWith("req_") == true) { "request id ${plinth.lastRequestId}" }
        firstRequestId = plinth.lastRequestId!!
        created += a.id
    }

    step("3 create with kyb") {
        val a = plinth.accounts.create(business("US", CreateAccountRequestKyb(ein = "12-3456789", legalName = "Acme Corp")))
        check(a.kyb?.einLast4 == "6789") { "kyb ${a.kyb}" }
        created += a.id
    }

    step("4 retrieve") {
        val a = plinth.accounts.retrieve(created[0])
        check(a.id == created[0]) { "id ${a.id}" }
    }

    step("4a deposit (sandbox)") {
        val t = plinth.sandbox.deposit(created[0], SimulateDepositRequest(amount = 10000))
        check(t.id.startsWith("txn_")) { "id ${t.id}" }
        check(t.amount == 10000L && t.balanceAfter == 10000L) { "amount ${t.amount} balance_after ${t.balanceAfter}" }
    }

    step("4b transfer (the client's own Idempotency-Key)") {
        val t = plinth.transfers.create(CreateTransferRequest(fromAccountId = created[0], toAccountId = created[1], amount = 2500, currency = "USD"))
        check(t.id.startsWith("tr_")) { "id ${t.id}" }
        check(t.status == "posted" && t.amount == 2500L) { "status ${t.status} amount ${t.amount}" }
        transferId = t.id
    }

    step("4c iterate the transactions") {
        val moves = plinth.transactions.list(created[0], limit = 1).map { it.amount to it.balanceAfter }.toList()
        check(moves == listOf(-2500L to 7500L, 10000L to 10000L)) { "transactions (amount, balance_after) $moves" }
    }

    step("4d insufficient funds -> 409 with param") {
        val e = expectError {
            plinth.transfers.create(CreateTransferRequest(fromAccountId = created[0], toAccountId = created[1], amount = 999999, currency = "USD"))
        }
        check(e.status == 409) { "status ${e.status}" }
        check(e.code == "insufficient_funds") { "code ${e.code}" }
        check(e.param == "from_account_id") { "param ${e.param}" }
        check(e.requestId?.startsWith("req_") == true) { "request_id ${e.requestId}" }
    }

    val idemKey = "conformance-${UUID.randomUUID()}"
    step("5 idempotent replay") {
        val a = plinth.accounts.create(business("US"), idempotencyKey = idemKey)
        val b = plinth.accounts.create(business("US"), idempotencyKey = idemKey)
        check(a.id == b.id) { "${a.id} != ${b.id}" }
        created += a.id
    }

    step("6 key reused with another body -> 422") {
        val e = expectError { plinth.accounts.create(business("CA"), idempotencyKey = idemKey) }
        check(e.status == 422) { "status ${e.status}" }
        check(e.code == "idempotency_key_reused") { "code ${e.code}" }
        check(e.requestId?.startsWith("req_") == true) { "request_id ${e.requestId}" }
    }

    step("7 bad key -> 401") {
        val bad = Plinth(apiKey = "sk_test_" + "A".repeat(38), baseUrl = url)
        val e = expectError { bad.accounts.retrieve(created[0]) }
        check(e.status == 401) { "status ${e.status}" }
        check(e.code == "api_key_invalid") { "code ${e.code}" }
    }

    step("8 unknown field -> 400 parameter_unknown") {
        val body = mapOf("type" to "business", "country" to "US", "colour" to "red")
        val e = expectError { plinth.request("POST", "/v1/fintech/accounts", body, Account::class.java) }
        check(e.status == 400) { "status ${e.status}" }
        check(e.code == "parameter_unknown") { "code ${e.code}" }
        check(e.param == "colour") { "param ${e.param}" }
        check(e.errors.isNotEmpty()) { "errors empty" }
    }

    step("9 auto-pagination") {
        val seen = plinth.accounts.list(limit = 1).map { it.id }.toList()
        check(seen.size == seen.toSet().size) { "duplicates $seen" }
        check(seen == created.reversed()) { "listed $seen expected ${created.reversed()}" }
    }

    step("10 429 retried honouring Retry-After") {
        val limitedKey = Plinth.signUp(limitedUrl).key
        val limited = Plinth(apiKey = limitedKey, baseUrl = limitedUrl)
        repeat(6) { limited.accounts.listPage(limit = 1) }
        check(limited.retryCount >= 1) { "no retry happened" }
    }

    step("11 tolerant decoding through the rewriting proxy") {
        val proxied = Plinth(apiKey = key, baseUrl = proxyUrl)
        val a = proxied.accounts.retrieve(created[0])
        check(a.id == created[0]) { "id ${a.id}" }
        check(a.status == "dormant") { "status ${a.status}" }
        val n = proxied.accounts.list(limit = 2).count()
        check(n == created.size) { "listed $n" }
        val e = expectError { proxied.accounts.retrieve("acct_" + "0".repeat(26)) }
        check(e.status == 404) { "status ${e.status}" }
        check(e.code == "future_error_code") { "code ${e.code}" }
    }

    step("12 a webhook delivery verifies with its secret, not with a changed body or another secret") {
        val made = plinth.webhookEndpoints.create(CreateWebhookEndpointRequest(url = "$receiverUrl/hook", enabledEvents = setOf("*")))
        val secret = made.secret
        check(secret.startsWith("whsec_")) { "secret $secret" }
        val event = plinth.webhookEndpoints.test(made.id)
        endpoint = Scenario.Endpoint(made.id, secret, event.id)
        check(event.type == "webhook_endpoint.test") { "type ${event.type}" }
        val http = HttpClient.newHttpClient()
        val json = ObjectMapper()
        var delivery: Map<String, Any?>? = null
        val deadline = System.nanoTime() + 10_000_000_000L
        while (delivery == null && System.nanoTime() < deadline) {
            val answer = http.send(HttpRequest.newBuilder(URI.create("$receiverUrl/deliveries?event=${event.id}")).build(),
                HttpResponse.BodyHandlers.ofString()).body()
            val found = json.readValue(answer, object : TypeReference<List<Map<String, Any?>>>() {})
            if (found.isNotEmpty()) delivery = found[0] else Thread.sleep(100)
        }
        check(delivery != null) { "no delivery of ${event.id} within 10 s" }
        @Suppress("UNCHECKED_CAST")
        val headers = delivery!!["headers"] as Map<String, String>
        val body = delivery["body"] as String
        val verified = Webhook.verify(secret, headers, body)
        check(verified.id == event.id) { "verified id ${verified.id}" }
        check(verified.type == "webhook_endpoint.test") { "verified type ${verified.type}" }
        val changed = body.toByteArray(Charsets.UTF_8)
        val i = body.indexOf(event.id) + 4 // a character of the id
        changed[i] = (if (changed[i] == '0'.code.toByte()) '1' else '0').code.toByte()
        val other = "whsec_" + java.util.Base64.getEncoder().encodeToString(ByteArray(32) { 7 })
        for ((wrongSecret, wrongBody) in listOf(secret to changed, other to body.toByteArray(Charsets.UTF_8))) {
            try {
                Webhook.verify(wrongSecret, headers, wrongBody)
                throw AssertionError("a changed body or another secret verified")
            } catch (e: WebhookVerificationException) {
                check(e.reason == "signature_mismatch") { "reason ${e.reason}" }
            }
        }
    }

    Scenario(plinth, created, transferId, endpoint).run()
    Holds(plinth, created, receiverUrl).run()
    requestLogStep(plinth, firstRequestId)
    reversalStep(plinth)
    readOnlyKeyStep(plinth, url)
    eventStreamStep(plinth, key, proxyUrl)
    paymentStep(plinth)
    auditStep(plinth)
    exitProcess(if (failures == 0) 0 else 1)
}
