package dev.plinth.conformance

import dev.plinth.Plinth
import dev.plinth.client.models.AdvanceSandboxClockRequest
import dev.plinth.client.models.CreateAccountNumberRequest
import dev.plinth.client.models.CreateExternalAccountRequest
import dev.plinth.client.models.CreatePaymentRequest
import dev.plinth.client.models.CreatePaymentRuleRequest
import dev.plinth.client.models.CreatePaymentRuleRequestAction
import dev.plinth.client.models.CreatePaymentRuleRequestMatch
import dev.plinth.client.models.SimulateInboundPaymentRequest
import java.time.DayOfWeek
import java.time.Instant
import java.time.ZoneOffset

/** 15:00 UTC on the first weekday after [now]: after that day's 09:00 New York settlement, before its cut-off. */
private fun afterNextSettlement(now: String): String {
    var day = Instant.parse(now).atZone(ZoneOffset.UTC).toLocalDate().plusDays(1)
    while (day.dayOfWeek == DayOfWeek.SATURDAY || day.dayOfWeek == DayOfWeek.SUNDAY) day = day.plusDays(1)
    return "${day}T15:00Z"
}

/**
 * Step 26 of the scenario: money in and out over the rails on the sandbox clock. An inbound ACH credit of 100 to a
 * new account number, an ACH payment of 60 out (held at once: available −60, current unchanged), the clock advanced
 * to the next business day after settlement (settled), a rule that returns it R01 two days after settlement, the
 * clock advanced again (returned, with a reversal of its transfer), and a statement that adds up. It runs last: it
 * moves the organisation's clock days ahead.
 */
internal fun paymentStep(plinth: Plinth) {
    step("26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule") {
        val account = plinth.accounts.create(business("US")).id
        val number = plinth.accountNumbers.create(CreateAccountNumberRequest(accountId = account, name = "Main"))
        check(Regex("[0-9]{12}").matches(number.accountNumber) && !number.replayed) { "number $number" }
        check(plinth.accountNumbers.retrieve(number.id).accountNumber == null) { "the number shown again" }
        fun balances(): List<Long> = plinth.accounts.retrieve(account).let { listOf(it.currentBalance.amount, it.availableBalance.amount) }
        val start = plinth.sandbox.retrieveClock().now

        val inbound = plinth.sandbox.inboundPayment(
            SimulateInboundPaymentRequest(
                accountNumber = number.accountNumber, amount = 100, rail = SimulateInboundPaymentRequest.Rail.ach,
                direction = SimulateInboundPaymentRequest.Direction.credit, originatorName = "Globex Corporation",
            ),
        )
        check(inbound.status == "settled" && inbound.direction == "inbound" && inbound.accountNumberId == number.id) { "inbound ${inbound.status}" }
        check(balances() == listOf(100L, 100L)) { "after the inbound credit: ${balances()}" }

        // A weekday morning first, so that the cut-off and the settlement are the same in every run.
        plinth.sandbox.advanceClock(AdvanceSandboxClockRequest(to = afterNextSettlement(start)))
        val external = plinth.externalAccounts.create(
            CreateExternalAccountRequest(
                routingNumber = "021000021", accountNumber = "000123456789", accountHolderName = "Acme Supplies LLC",
                accountType = CreateExternalAccountRequest.AccountType.checking,
            ),
        ).id
        val payment = plinth.payments.create(
            CreatePaymentRequest(
                accountId = account, externalAccountId = external, amount = 60,
                currency = CreatePaymentRequest.Currency.USD, rail = CreatePaymentRequest.Rail.ach,
            ),
        )
        check(payment.status == "pending_submission") { "new payment ${payment.status}" }
        check(balances() == listOf(100L, 40L)) { "held at once (available −60, current unchanged): ${balances()}" }

        val settledAt = afterNextSettlement(plinth.sandbox.retrieveClock().now)
        val now = plinth.sandbox.advanceClock(AdvanceSandboxClockRequest(to = settledAt)).now
        check(now.startsWith(settledAt.removeSuffix("Z"))) { "clock $now, asked $settledAt" }
        check(plinth.payments.retrieve(payment.id).status == "settled") { "not settled" }
        check(balances() == listOf(40L, 40L)) { "after settlement: ${balances()}" }

        val action = CreatePaymentRuleRequestAction(`return` = CreatePaymentRuleRequestAction.`Return`.R01, at = "P2D")
        val rule = plinth.sandbox.createPaymentRule(CreatePaymentRuleRequest(CreatePaymentRuleRequestMatch(amount = 60), action))
        check(rule.id.startsWith("prule_")) { "rule ${rule.id}" }
        plinth.sandbox.advanceClock(AdvanceSandboxClockRequest(to = Instant.parse(now).plusSeconds(3 * 86_400L).toString()))
        val returned = plinth.payments.retrieve(payment.id)
        check(returned.status == "returned" && returned.returnReason?.code == "R01") { "returned ${returned.status}" }
        val reversals = plinth.transfers.listReversals(returned.transferId!!).toList()
        check(reversals.size == 1 && reversals[0].description.orEmpty().startsWith("R01")) { "reversals ${reversals.size}" }
        check(balances() == listOf(100L, 100L)) { "after the return: ${balances()}" }

        val s = plinth.accounts.statement(account, start, plinth.sandbox.retrieveClock().now)
        check(s.closingBalance == s.openingBalance + s.credits.amount - s.debits.amount && s.closingBalance == 100L) { "statement $s" }
    }
}
