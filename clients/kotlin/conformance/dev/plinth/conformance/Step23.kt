package dev.plinth.conformance

import dev.plinth.Plinth
import dev.plinth.client.models.CreateAccountRequest
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.SimulateDepositRequest
import java.time.Duration
import java.time.Instant
import java.time.temporal.ChronoUnit

/**
 * Now, to the millisecond (what the server stores), a few milliseconds after the last write and before the next, as
 * RFC 3339: this machine's clock is the server's, so which side of it each movement falls on never depends on timing.
 */
private fun moment(): String {
    Thread.sleep(5)
    val now = Instant.now().truncatedTo(ChronoUnit.MILLIS)
    Thread.sleep(5)
    return now.toString()
}

/** Step 23 of the scenario: a reversal, the balances at a moment before it, a statement around it, and a nickname. */
internal fun reversalStep(plinth: Plinth) {
    step("23 reverse part of a transfer; balances before it, a statement around it; a nickname") {
        val start = Instant.now().minus(Duration.ofMinutes(1)).toString()
        val a = plinth.accounts.create(CreateAccountRequest(type = CreateAccountRequest.Type.business, country = "US", nickname = "Operating")).id
        val b = plinth.accounts.create(business("US")).id
        plinth.sandbox.deposit(a, SimulateDepositRequest(amount = 10000))
        val t = plinth.transfers.create(CreateTransferRequest(fromAccountId = a, toAccountId = b, amount = 3000, currency = "USD"))
        val before = moment()
        val r = plinth.transfers.reverse(t.id, amount = 1000)
        check(r.id.startsWith("trr_") && r.amount == 1000L && r.transferId == t.id) { "reversal ${r.id} ${r.amount} of ${r.transferId}" }
        val after = plinth.transfers.retrieve(t.id)
        check(after.amountReversed == 1000L && !after.reversed) { "amount_reversed ${after.amountReversed}, reversed ${after.reversed}" }
        val listed = plinth.transfers.listReversals(t.id).map { it.id }.toList()
        check(listed == listOf(r.id)) { "reversals $listed" }
        val again = plinth.transfers.retrieveReversal(t.id, r.id)
        check(again.id == r.id && again.amount == 1000L) { "retrieved ${again.id}" }

        val then = plinth.accounts.balances(b, at = before)
        val now = plinth.accounts.balances(b)
        check(then.currentBalance.amount == 3000L) { "at $before: ${then.currentBalance}" }
        check(now.currentBalance.amount == 2000L && now.availableBalance.amount == 2000L) { "now: ${now.currentBalance} ${now.availableBalance}" }

        val s = plinth.accounts.statement(b, from = start, to = moment())
        check(s.closingBalance == s.openingBalance + s.credits.amount - s.debits.amount) { "closing != opening + credits - debits: $s" }
        check(s.openingBalance == 0L && s.closingBalance == 2000L && s.credits.count == 1L && s.debits.count == 1L && s.debits.amount == 1000L) {
            "statement $s"
        }

        val named = plinth.accounts.update(b, nickname = "Payroll")
        check(named.nickname == "Payroll") { "nickname ${named.nickname}" }
        check(plinth.accounts.retrieve(b).nickname == "Payroll") { "nickname not read back" }
        check(plinth.accounts.retrieve(a).nickname == "Operating") { "the nickname given at create" }
        check(plinth.accounts.update(b, nickname = "").nickname == null) { "nickname not cleared" }
    }
}
