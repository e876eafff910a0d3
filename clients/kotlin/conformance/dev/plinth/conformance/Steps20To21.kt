package dev.plinth.conformance

import dev.plinth.Created
import dev.plinth.Plinth
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.CreateWebhookEndpointRequest
import dev.plinth.client.models.SimulateDepositRequest

/** Steps 20–21 of the scenario: pending transfers, metadata and the list filters, through the layer only. */
internal class Holds(private val plinth: Plinth, accounts: List<String>, private val receiverUrl: String) {
    private val first = accounts.getOrElse(0) { "" }
    private val second = accounts.getOrElse(1) { "" }
    private val pendingIds = mutableListOf<String>()

    private fun pending(amount: Long, metadata: Map<String, String>? = null, expiresInSeconds: Int? = null) =
        CreateTransferRequest(fromAccountId = first, toAccountId = second, amount = amount, currency = "USD", pending = true,
            metadata = metadata, expiresInSeconds = expiresInSeconds)

    fun run() {
        step("20 pending transfers: hold, post part, void, expire") {
            val had = plinth.accounts.retrieve(first).currentBalance.amount
            plinth.sandbox.deposit(first, SimulateDepositRequest(amount = 10000))
            val held = plinth.transfers.create(pending(4000, metadata = mapOf("order" to "A-1"), expiresInSeconds = 3600))
            check(held.status == "pending" && held.pending && held.expiresAt != null && held.postedAmount == null) {
                "pending transfer ${held.status} expires_at ${held.expiresAt} posted ${held.postedAmount}"
            }
            check(held.metadata == mapOf("order" to "A-1")) { "metadata ${held.metadata}" }
            pendingIds += held.id
            val a = plinth.accounts.retrieve(first)
            check(a.currentBalance.amount == had + 10000 && a.availableBalance.amount == had + 6000) {
                "balances current ${a.currentBalance.amount} available ${a.availableBalance.amount}"
            }

            val posted = plinth.transfers.post(held.id, amount = 2500)
            check(posted.status == "posted" && posted.postedAmount == 2500L) { "posted ${posted.status} ${posted.postedAmount}" }
            val b = plinth.accounts.retrieve(first)
            check(b.availableBalance.amount == b.currentBalance.amount && b.currentBalance.amount == had + 7500) {
                "balances current ${b.currentBalance.amount} available ${b.availableBalance.amount}"
            }

            val toVoid = plinth.transfers.create(pending(1000))
            pendingIds += toVoid.id
            val voided = plinth.transfers.void(toVoid.id)
            check(voided.status == "voided") { "voided ${voided.status}" }
            val notPending = expectError { plinth.transfers.post(toVoid.id) }
            check(notPending.status == 409 && notPending.code == "transfer_not_pending") { "post of a voided transfer $notPending" }

            val toExpire = plinth.transfers.create(pending(500))
            pendingIds += toExpire.id
            val expired = plinth.sandbox.expireTransfer(toExpire.id)
            check(expired.status == "expired") { "expired ${expired.status}" }
            val late = expectError { plinth.transfers.post(toExpire.id) }
            check(late.status == 409 && late.code == "transfer_expired") { "post of an expired transfer $late" }
        }

        step("21 metadata and filters") {
            val updated = plinth.accounts.update(first, mapOf("customer" to "c-42"))
            check(updated.metadata == mapOf("customer" to "c-42")) { "metadata ${updated.metadata}" }
            val byMetadata = plinth.accounts.list(metadata = mapOf("customer" to "c-42")).map { it.id }.toList()
            check(byMetadata == listOf(first)) { "accounts with metadata[customer]=c-42: $byMetadata" }

            val stillPending = plinth.transfers.list(status = "pending").map { it.id }.toList()
            check(pendingIds.size == 3 && pendingIds.none { it in stillPending }) { "still pending: $stillPending" }
            val byOrder = plinth.transfers.list(metadata = mapOf("order" to "A-1")).map { it.id }.toList()
            check(byOrder == listOf(pendingIds[0])) { "transfers with metadata[order]=A-1: $byOrder" }
            val cleared = plinth.transfers.update(pendingIds[0], mapOf("order" to ""))
            check(cleared.metadata.isEmpty()) { "metadata ${cleared.metadata}" }

            val since = Created(gte = updated.createdAt)
            val events = plinth.events.list(created = since).count()
            check(events >= 1) { "events created since ${updated.createdAt}: $events" }
            // The bounds are on the wire: none from the future, and the first account's transactions since its creation.
            check(plinth.events.list(created = Created(gte = FUTURE)).none()) { "events from the future" }
            val transactions = plinth.transactions.list(first, created = since).count()
            check(transactions >= 4) { "transactions since ${updated.createdAt}: $transactions" }
            check(plinth.transactions.listPage(first, created = Created(gte = FUTURE)).`data`.isEmpty()) { "transactions from the future" }

            // "" clears every key, on an account and on a webhook endpoint (created with metadata, changed, cleared).
            check(plinth.accounts.clearMetadata(first).metadata.isEmpty()) { "account metadata not cleared" }
            val endpoint = plinth.webhookEndpoints.create(CreateWebhookEndpointRequest(url = "$receiverUrl/hook",
                enabledEvents = setOf("fintech.transfer.posted"), metadata = mapOf("team" to "payments")))
            check(endpoint.metadata == mapOf("team" to "payments")) { "endpoint ${endpoint.metadata}" }
            val changed = plinth.webhookEndpoints.update(endpoint.id, metadata = mapOf("team" to "", "owner" to "ops"))
            check(changed.metadata == mapOf("owner" to "ops")) { "endpoint ${changed.metadata}" }
            check(plinth.webhookEndpoints.clearMetadata(endpoint.id).metadata.isEmpty()) { "endpoint metadata not cleared" }
            plinth.webhookEndpoints.delete(endpoint.id)
        }
    }

    private companion object {
        /** No object of this organisation was created on or after this minute. */
        const val FUTURE = "2999-01-01T00:00Z"
    }
}
