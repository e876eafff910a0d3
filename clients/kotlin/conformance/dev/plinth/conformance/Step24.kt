package dev.plinth.conformance

import dev.plinth.Plinth
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.SimulateDepositRequest

/**
 * Step 24 of the scenario: a read-only key. It reads an account and its balances; its transfer is refused with 403
 * `permission_denied` before anything moves, as the full key's view of the balance shows.
 */
internal fun readOnlyKeyStep(plinth: Plinth, url: String) {
    step("24 a read-only key reads an account and its balances; its transfer is a 403") {
        val a = plinth.accounts.create(business("US")).id
        val b = plinth.accounts.create(business("US")).id
        plinth.sandbox.deposit(a, SimulateDepositRequest(amount = 1000))

        val k = plinth.apiKeys.create(name = "read-only", permissions = mapOf("accounts" to "read", "transactions" to "read"))
        check(k.key.startsWith("rk_test_")) { "restricted key ${k.hint}" }
        val p = k.permissions
        check(p?.accounts == "read" && p.transactions == "read" && p.transfers == "none") { "permissions $p" }
        val read = plinth.apiKeys.retrieve(k.id).permissions
        check(read?.accounts == "read" && read.sandbox == "none") { "retrieved permissions $read" }

        val reader = Plinth(apiKey = k.key, baseUrl = url)
        check(reader.accounts.retrieve(a).id == a) { "the reader retrieves the account" }
        val seen = reader.accounts.balances(a)
        check(seen.currentBalance.amount == 1000L) { "the reader's balance ${seen.currentBalance}" }

        val e = expectError {
            reader.transfers.create(CreateTransferRequest(fromAccountId = a, toAccountId = b, amount = 100, currency = "USD"))
        }
        check(e.status == 403 && e.code == "permission_denied") { "transfer with a read-only key: ${e.status} ${e.code}" }

        val after = plinth.accounts.balances(a)
        check(after.currentBalance.amount == 1000L && after.availableBalance.amount == 1000L) {
            "nothing moved: ${after.currentBalance} ${after.availableBalance}"
        }
        check(plinth.accounts.balances(b).currentBalance.amount == 0L) { "nothing arrived" }
    }
}
