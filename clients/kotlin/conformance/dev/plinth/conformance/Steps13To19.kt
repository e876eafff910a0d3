package dev.plinth.conformance

import dev.plinth.Plinth
import dev.plinth.client.models.CloseAccountRequest
import dev.plinth.client.models.CreateApiKeyRequest
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.FreezeAccountRequest
import dev.plinth.client.models.SimulateDepositRequest
import dev.plinth.client.models.SimulateWithdrawalRequest
import dev.plinth.client.models.UpdateWebhookEndpointRequest
import dev.plinth.client.models.WebhookDelivery

/** Steps 13–19 of the scenario: every other operation, through the layer's methods only. */
internal class Scenario(private val plinth: Plinth, accounts: List<String>, private val transferId: String, private val endpoint: Endpoint) {
    /** The endpoint of step 12: its id, its first secret, and the id of its test event. */
    data class Endpoint(val id: String, val secret: String, val testEventId: String)

    private val first = accounts.getOrElse(0) { "" }
    private val second = accounts.getOrElse(1) { "" }

    fun run() {
        step("13 freeze, list by status, a transfer to a frozen account fails, unfreeze") {
            val a = plinth.accounts.freeze(second, FreezeAccountRequest(reason = FreezeAccountRequest.Reason.compliance_review, note = "conformance"))
            check(a.status == "frozen") { "status ${a.status}" }
            check(a.statusDetails?.reason == "compliance_review") { "status_details ${a.statusDetails}" }
            val frozen = plinth.accounts.list(status = "frozen").map { it.id }.toList()
            check(frozen == listOf(second)) { "frozen accounts $frozen" }
            val e = expectError {
                plinth.transfers.create(CreateTransferRequest(fromAccountId = first, toAccountId = second, amount = 1, currency = "USD"))
            }
            check(e.status == 409 && e.code == "account_frozen") { "error $e" }
            check(e.param == "to_account_id") { "param ${e.param}" }
            val b = plinth.accounts.unfreeze(second)
            check(b.status == "active" && b.statusDetails == null) { "status ${b.status} details ${b.statusDetails}" }
        }

        step("14 sandbox withdrawal") {
            val t = plinth.sandbox.withdraw(first, SimulateWithdrawalRequest(amount = 500))
            check(t.amount == -500L && t.balanceAfter == 7000L) { "amount ${t.amount} balance_after ${t.balanceAfter}" }
        }

        step("15 transfers of one account, retrieve") {
            val ids = plinth.transfers.list(accountId = second).map { it.id }.toList()
            check(ids == listOf(transferId)) { "transfers $ids expected $transferId" }
            val t = plinth.transfers.retrieve(transferId)
            check(t.id == transferId && t.amount == 2500L) { "retrieved ${t.id}" }
        }

        step("16 close an account; a deposit to it fails") {
            val third = plinth.accounts.create(business("US")).id
            val c = plinth.accounts.close(third, CloseAccountRequest(reason = CloseAccountRequest.Reason.customer_request))
            check(c.status == "closed" && c.closedAt != null) { "status ${c.status} closed_at ${c.closedAt}" }
            val e = expectError { plinth.sandbox.deposit(third, SimulateDepositRequest(amount = 1)) }
            check(e.status == 409 && e.code == "account_closed") { "error $e" }
        }

        step("17 events by type, across pages; retrieve") {
            val events = plinth.events.list(type = "fintech.account.created", limit = 2).toList()
            check(events.size >= 3) { "events ${events.size}" }
            check(events.all { it.type == "fintech.account.created" }) { "types ${events.map { it.type }}" }
            check(events.zipWithNext().all { (a, b) -> b.sequence < a.sequence }) { "sequences ${events.map { it.sequence }}" }
            val one = plinth.events.retrieve(events[0].id)
            check(one.id == events[0].id && one.sequence == events[0].sequence) { "retrieved ${one.id} #${one.sequence}" }
        }

        step("18 endpoint update, deliveries, retry, rotate, list, delete") {
            val u = plinth.webhookEndpoints.update(endpoint.id, UpdateWebhookEndpointRequest(description = "updated"))
            check(u.description == "updated") { "description ${u.description}" }
            // The receiver has the test delivery (step 12); the server records its success just after answering it.
            var delivery: WebhookDelivery? = null
            val deadline = System.nanoTime() + 10_000_000_000L
            while (System.nanoTime() < deadline) {
                delivery = plinth.webhookEndpoints.listDeliveries(endpoint.id).firstOrNull { it.eventId == endpoint.testEventId }
                if (delivery?.status == "succeeded") break
                Thread.sleep(100)
            }
            check(delivery?.status == "succeeded") { "test delivery $delivery" }
            val deliveryId = delivery!!.id
            check(plinth.events.listDeliveries(endpoint.testEventId).any { it.id == deliveryId }) { "the event's deliveries lack $deliveryId" }
            check(plinth.webhookDeliveries.retry(deliveryId).id == deliveryId) { "retried" }
            val secret = plinth.webhookEndpoints.rotateSecret(endpoint.id).secret
            check(secret.startsWith("whsec_") && secret != endpoint.secret) { "rotated secret $secret" }
            check(plinth.webhookEndpoints.list().any { it.id == endpoint.id }) { "endpoint not listed" }
            check(plinth.webhookEndpoints.delete(endpoint.id).deleted) { "not deleted" }
            val e = expectError { plinth.webhookEndpoints.retrieve(endpoint.id) }
            check(e.status == 404 && e.code == "resource_not_found") { "error $e" }
        }

        step("19 api keys: create, list, retrieve, revoke") {
            val k = plinth.apiKeys.create(CreateApiKeyRequest(name = "conformance"))
            check(k.key.startsWith("sk_test_") && k.name == "conformance") { "key $k" }
            check(plinth.apiKeys.list().any { it.id == k.id }) { "key not listed" }
            check(plinth.apiKeys.retrieve(k.id).id == k.id) { "retrieve" }
            check(plinth.apiKeys.revoke(k.id).revokedAt != null) { "revoked_at null" }
        }
    }
}
