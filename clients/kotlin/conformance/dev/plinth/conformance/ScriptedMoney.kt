package dev.plinth.conformance

private const val REVERSAL = """{"id":"trr_1","object":"fintech.transfer_reversal","transfer_id":"tr_1","amount":1000,""" +
    """"currency":"USD","description":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}"""
private const val BALANCES = """{"object":"fintech.balances","account_id":"acct_1","at":"2026-11-24T09:30Z",""" +
    """"current_balance":{"amount":3000,"currency":"USD"},"available_balance":{"amount":3000,"currency":"USD"},""" +
    """"last_transaction_id":null,"livemode":false}"""
private const val STATEMENT = """{"object":"fintech.statement","account_id":"acct_1","currency":"USD","from":"2026-11-01T00:00Z",""" +
    """"to":"2026-11-24T08:30Z","opening_balance":0,"closing_balance":2000,"credits":{"count":1,"amount":3000},""" +
    """"debits":{"count":1,"amount":1000},"livemode":false}"""

/** What the reversal, balance and statement methods and a nickname update send, against the scripted server. */
internal fun scriptedMoney() {
    test("a reversal, its list and retrieve, balances at a moment, a statement, a nickname") {
        val replies = arrayOf(
            Reply(200, REVERSAL), Reply(200, REVERSAL), Reply(200, """{"object":"list","data":[$REVERSAL],"has_more":false}"""),
            Reply(200, REVERSAL), Reply(200, BALANCES), Reply(200, BALANCES), Reply(200, STATEMENT),
        )
        Scripted(*replies).use { s ->
            val p = client(s.url)
            p.transfers.reverse("tr_1")
            val r = p.transfers.reverse("tr_1", amount = 1000, description = "refund")
            check(r.id == "trr_1" && r.amount == 1000L) { "reversal $r" }
            p.transfers.listReversalsPage("tr_1", limit = 2)
            p.transfers.retrieveReversal("tr_1", "trr_1")
            p.accounts.balances("acct_1")
            p.accounts.balances("acct_1", at = "2026-11-24T09:30:00.250Z")
            val st = p.accounts.statement("acct_1", from = "2026-11-01T00:00Z", to = "2026-11-24T09:30:00+01:00")
            check(st.closingBalance == 2000L && st.debits.amount == 1000L) { "statement $st" }
            p.accounts.update("acct_1", nickname = "Payroll")
            p.accounts.update("acct_1", metadata = mapOf("customer" to "c-42"), nickname = "")
            val sent = s.seen.map { "${it.method} ${it.uri} ${it.body}" + if (it.method == "POST" && it.idempotencyKey == null) " (no key)" else "" }
            val expected = listOf(
                "POST /v1/fintech/transfers/tr_1/reversals {}",
                """POST /v1/fintech/transfers/tr_1/reversals {"amount":1000,"description":"refund"}""",
                "GET /v1/fintech/transfers/tr_1/reversals?limit=2 ",
                "GET /v1/fintech/transfers/tr_1/reversals/trr_1 ",
                "GET /v1/fintech/accounts/acct_1/balances ",
                "GET /v1/fintech/accounts/acct_1/balances?at=2026-11-24T09%3A30%3A00.250Z ",
                "GET /v1/fintech/accounts/acct_1/statement?from=2026-11-01T00%3A00Z&to=2026-11-24T09%3A30%3A00%2B01%3A00 ",
                """POST /v1/fintech/accounts/acct_1 {"nickname":"Payroll"}""",
                """POST /v1/fintech/accounts/acct_1 {"metadata":{"customer":"c-42"},"nickname":""}""",
            )
            check(sent == expected) { "sent $sent" }
        }
    }
}
