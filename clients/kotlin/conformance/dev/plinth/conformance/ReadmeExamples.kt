// The README's Kotlin examples, compiled with the conformance scenario (mvn -Pconformance, build.sh) so that an
// example that no longer compiles fails the client's test. Between the markers: written by scripts/clients/readme.ts
// from ../../../../README.md (edit the README, then run `node scripts/clients/readme.ts kotlin`); the README's
// imports are moved above them. The values below are what the examples use but do not define. Nothing here runs.
@file:Suppress("UNUSED_VARIABLE", "unused")

package dev.plinth.conformance

import dev.plinth.*
import dev.plinth.client.models.*
import java.time.Duration
import java.time.Instant

private lateinit var plinth: Plinth
private lateinit var url: String
private lateinit var a: String // account ids
private lateinit var b: String
private lateinit var id: String
private lateinit var accountId: String
private lateinit var endpointId: String
private lateinit var t: Transfer // a posted transfer
private lateinit var other: Transfer // a pending one
private lateinit var secret: String // a delivery's secret, headers and body
private lateinit var headers: Map<String, String>
private lateinit var rawBody: String

// readme-examples:start
internal fun readmeExample1() {
    try {
        plinth.accounts.retrieve("acct_missing")
    } catch (e: PlinthException) {
        println("${e.status} ${e.code} ${e.param} ${e.errors} ${e.requestId}") // 404 resource_not_found null [] req_…
    }
}

internal fun readmeExample2() {
    for (a in plinth.accounts.list(status = "frozen", limit = 100)) println(a.id)
    val page = plinth.accounts.listPage(limit = 10, startingAfter = "acct_…")
    plinth.transfers.list(status = "pending", created = Created(gte = Instant.now().minusSeconds(86_400).toString()))
    plinth.accounts.list(metadata = mapOf("customer" to "c-42")).firstOrNull()
}

internal fun readmeExample3() {
    val hold = plinth.transfers.create(CreateTransferRequest(fromAccountId = a, toAccountId = b, amount = 4000,
        currency = "USD", pending = true, expiresInSeconds = 3600, metadata = mapOf("order" to "A-1")))
    hold.status                                 // "pending"; hold.expiresAt set, hold.postedAmount null
    val captured = plinth.transfers.post(hold.id, amount = 2500)
    captured.postedAmount                       // 2500; the other 1500 is available to a again
    plinth.transfers.void(other.id).status      // "voided": released, nothing moved
}

internal fun readmeExample4() {
    val r = plinth.transfers.reverse(t.id, amount = 1000, description = "refund") // "trr_…"
    plinth.transfers.retrieve(t.id).amountReversed                                // 1000
    plinth.transfers.listReversals(t.id).forEach { println(it.id) }
    plinth.transfers.retrieveReversal(t.id, r.id)
}

internal fun readmeExample5() {
    plinth.accounts.balances(id, at = "2026-11-24T09:30:00Z").currentBalance.amount
    val s = plinth.accounts.statement(id, from = "2026-11-01T00:00Z", to = "2026-12-01T00:00Z")
    println("${s.openingBalance} + ${s.credits.amount} - ${s.debits.amount} = ${s.closingBalance}")
}

internal fun readmeExample6() {
    plinth.accounts.update(accountId, mapOf("customer" to "c-42", "old_ref" to "")) // sets customer, removes old_ref
    plinth.transfers.clearMetadata(t.id)                                           // removes every key
    plinth.accounts.update(accountId, nickname = "Payroll")                        // nickname = "" removes it
    plinth.webhookEndpoints.update(endpointId, UpdateWebhookEndpointRequest(description = "orders"), metadata = mapOf("team" to "payments"))
}

internal fun readmeExample7() {
    val k = plinth.apiKeys.create(name = "Reporting", permissions = mapOf("accounts" to "read", "transactions" to "read"))
    k.key                                // "rk_test_…"
    k.permissions?.transfers             // "none"; permissions is null for a full key (sk_…)
    val reader = Plinth(apiKey = k.key, baseUrl = url)
    reader.accounts.balances(accountId)  // allowed: accounts: read
    reader.transfers.create(CreateTransferRequest(fromAccountId = a, toAccountId = b, amount = 100, currency = "USD"))
    // PlinthException 403 permission_denied: nothing moved
}

internal fun readmeExample8() {
    val event = Webhook.verify(secret, headers, rawBody, tolerance = Duration.ofMinutes(5)) // throws WebhookVerificationException
}

internal fun readmeExample9() {
    // From the oldest account still kept, then live; the end of use { } closes it.
    plinth.events.stream(type = "fintech.account.created", after = 0).use { events ->
        for (event in events) {
            println("${event.sequence} ${event.type} ${event.`data`.`object`["id"]}")
            if (event.`data`.`object`["id"] == a) break // the account we waited for
        }
    }
}

internal fun readmeExample10() {
    val checkpoint = plinth.audit.retrieveCheckpoint()
    var after = 0L
    while (after < checkpoint.propertySize) {
        for (link in plinth.audit.listChain(after, limit = 1000).`data`) {
            after = link.sequence
            if (after == checkpoint.propertySize) println(link.hash == checkpoint.hash) // true: the chain ends there
        }
    }
}
// readme-examples:end
