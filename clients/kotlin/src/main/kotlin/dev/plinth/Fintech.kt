package dev.plinth

import dev.plinth.client.apis.FintechAccountsApi
import dev.plinth.client.apis.FintechTransactionsApi
import dev.plinth.client.models.Account
import dev.plinth.client.models.AccountBalances
import dev.plinth.client.models.AccountList
import dev.plinth.client.models.AccountStatement
import dev.plinth.client.models.CloseAccountRequest
import dev.plinth.client.models.CreateAccountRequest
import dev.plinth.client.models.FreezeAccountRequest
import dev.plinth.client.models.SimulateDepositRequest
import dev.plinth.client.models.SimulateWithdrawalRequest
import dev.plinth.client.models.Transaction
import dev.plinth.client.models.TransactionList
import dev.plinth.client.models.Transfer

/** Fintech accounts: `/v1/fintech/accounts`. */
class Accounts internal constructor(private val plinth: Plinth) {
    private val api = FintechAccountsApi(plinth.base, plinth.httpClient)
    private val ledger = FintechTransactionsApi(plinth.base, plinth.httpClient)

    /** `createAccount`. One Idempotency-Key, reused by retries ([idempotencyKey] to choose it). */
    fun create(params: CreateAccountRequest, idempotencyKey: String? = null): Account =
        plinth.call { api.createAccountWithHttpInfo(params, idempotencyKey) }

    /** `retrieveAccount`. */
    fun retrieve(id: String): Account = plinth.call { api.retrieveAccountWithHttpInfo(id) }

    /**
     * `listAccounts`: every account, newest first, fetched a page of [limit] at a time; only those in [status], created
     * within [created], and whose metadata has every pair of [metadata], for each filter given.
     */
    fun list(
        status: String? = null,
        limit: Int? = null,
        startingAfter: String? = null,
        endingBefore: String? = null,
        created: Created? = null,
        metadata: Map<String, String>? = null,
    ): Sequence<Account> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(status, l, a, b, created, metadata) }, { it.`data` }, { it.hasMore }, { it.id })

    /**
     * `listAccounts`: one page. The filters go out as given: the generated API types `status` as a closed enum, which
     * could not send a status newer than this client, and sends `metadata` in a shape the server does not read.
     */
    fun listPage(
        status: String? = null,
        limit: Int? = null,
        startingAfter: String? = null,
        endingBefore: String? = null,
        created: Created? = null,
        metadata: Map<String, String>? = null,
    ): AccountList =
        plinth.get("/v1/fintech/accounts", query(limit, startingAfter, endingBefore, "status" to status, created = created, metadata = metadata),
            AccountList::class.java)

    /**
     * `updateAccount`: sets each key of [metadata] to its value and removes each key given `""`; keys not named stay.
     * [nickname] names the account for people (`""` removes it): `update(id, nickname = "Payroll")`. Either or both;
     * allowed on a closed account.
     */
    fun update(id: String, metadata: Map<String, String>? = null, idempotencyKey: String? = null, nickname: String? = null): Account {
        val body = linkedMapOf<String, Any>()
        metadata?.let { body["metadata"] = it }
        nickname?.let { body["nickname"] = it }
        return plinth.request("POST", "/v1/fintech/accounts/${encode(id)}", body, Account::class.java, idempotencyKey)
    }

    /** `updateAccount` with `"metadata": ""`: removes every key. */
    fun clearMetadata(id: String, idempotencyKey: String? = null): Account =
        plinth.request("POST", "/v1/fintech/accounts/${encode(id)}", mapOf("metadata" to ""), Account::class.java, idempotencyKey)

    /**
     * `retrieveAccountBalances`: the balances as they stood at [at], inclusive (now when null): `2026-11-24T09:30Z` (the
     * end of that minute) or RFC 3339 with an offset (that instant, `Instant.toString()`); not before the account was
     * opened; after now is read as now. The answer's `at` is the moment used, to the millisecond.
     */
    fun balances(id: String, at: String? = null): AccountBalances = plinth.call { ledger.retrieveAccountBalancesWithHttpInfo(id, at) }

    /**
     * `retrieveAccountStatement` for [[from], [to]): opening and closing balances, credits and debits, and always
     * `closing = opening + credits − debits`. A minute form means that minute's start; a [to] after now is now.
     */
    fun statement(id: String, from: String, to: String): AccountStatement =
        plinth.call { ledger.retrieveAccountStatementWithHttpInfo(id, from, to) }

    /** `freezeAccount`: no debit or credit until unfrozen. */
    fun freeze(id: String, params: FreezeAccountRequest, idempotencyKey: String? = null): Account =
        plinth.call { api.freezeAccountWithHttpInfo(id, params, idempotencyKey) }

    /** `unfreezeAccount`. */
    fun unfreeze(id: String, idempotencyKey: String? = null): Account =
        plinth.call { api.unfreezeAccountWithHttpInfo(id, idempotencyKey) }

    /** `closeAccount`: final; both balances must be 0. The reason is `other` when not given. */
    fun close(id: String, params: CloseAccountRequest = CloseAccountRequest(), idempotencyKey: String? = null): Account =
        plinth.call { api.closeAccountWithHttpInfo(id, idempotencyKey, params) }
}

/** Fintech transactions: what each movement of money did to one account. */
class Transactions internal constructor(private val plinth: Plinth) {
    private val api = FintechTransactionsApi(plinth.base, plinth.httpClient)

    /** `listAccountTransactions`: every transaction of an account (created within [created], if given), newest first. */
    fun list(accountId: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null, created: Created? = null): Sequence<Transaction> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(accountId, l, a, b, created) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listAccountTransactions`: one page. */
    fun listPage(accountId: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null, created: Created? = null): TransactionList =
        plinth.get("/v1/fintech/accounts/${encode(accountId)}/transactions", query(limit, startingAfter, endingBefore, created = created),
            TransactionList::class.java)

    /** `retrieveTransaction`. */
    fun retrieve(id: String): Transaction = plinth.call { api.retrieveTransactionWithHttpInfo(id) }
}

/** Sandbox simulations (sandbox keys only): money in and out from nowhere, for testing. */
class Sandbox internal constructor(private val plinth: Plinth) {
    private val api = FintechTransactionsApi(plinth.base, plinth.httpClient)

    /** `simulateDeposit`: the credit transaction. */
    fun deposit(accountId: String, params: SimulateDepositRequest, idempotencyKey: String? = null): Transaction =
        plinth.call { api.simulateDepositWithHttpInfo(accountId, params, idempotencyKey) }

    /** `simulateWithdrawal`: the debit transaction (`insufficient_funds` possible). */
    fun withdraw(accountId: String, params: SimulateWithdrawalRequest, idempotencyKey: String? = null): Transaction =
        plinth.call { api.simulateWithdrawalWithHttpInfo(accountId, params, idempotencyKey) }

    /** `simulateTransferExpiry`: a pending transfer expires now, as at its `expiresAt`: `expired`, its hold released. */
    fun expireTransfer(id: String, idempotencyKey: String? = null): Transfer =
        plinth.call { api.simulateTransferExpiryWithHttpInfo(id, idempotencyKey) }
}

