package dev.plinth

import dev.plinth.client.apis.FintechAccountsApi
import dev.plinth.client.apis.FintechTransactionsApi
import dev.plinth.client.apis.FintechTransfersApi
import dev.plinth.client.models.Account
import dev.plinth.client.models.AccountList
import dev.plinth.client.models.CloseAccountRequest
import dev.plinth.client.models.CreateAccountRequest
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.FreezeAccountRequest
import dev.plinth.client.models.SimulateDepositRequest
import dev.plinth.client.models.SimulateWithdrawalRequest
import dev.plinth.client.models.Transaction
import dev.plinth.client.models.TransactionList
import dev.plinth.client.models.Transfer
import dev.plinth.client.models.TransferList

/** Fintech accounts: `/v1/fintech/accounts`. */
class Accounts internal constructor(private val plinth: Plinth) {
    private val api = FintechAccountsApi(plinth.base, plinth.httpClient)

    /** `createAccount`. One Idempotency-Key, reused by retries ([idempotencyKey] to choose it). */
    fun create(params: CreateAccountRequest, idempotencyKey: String? = null): Account =
        plinth.call { api.createAccountWithHttpInfo(params, idempotencyKey) }

    /** `retrieveAccount`. */
    fun retrieve(id: String): Account = plinth.call { api.retrieveAccountWithHttpInfo(id) }

    /** `listAccounts`: every account (in [status], if given), newest first, fetched a page of [limit] at a time. */
    fun list(status: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<Account> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(status, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /**
     * `listAccounts`: one page. The status goes out as given: the generated API types it as a closed enum, which
     * could not send a status newer than this client.
     */
    fun listPage(status: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): AccountList =
        plinth.get("/v1/fintech/accounts", query(limit, startingAfter, endingBefore, "status" to status), AccountList::class.java)

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

    /** `listAccountTransactions`: every transaction of an account, newest first, a page of [limit] at a time. */
    fun list(accountId: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<Transaction> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(accountId, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listAccountTransactions`: one page. */
    fun listPage(accountId: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): TransactionList =
        plinth.call { api.listAccountTransactionsWithHttpInfo(accountId, limit, startingAfter, endingBefore) }

    /** `retrieveTransaction`. */
    fun retrieve(id: String): Transaction = plinth.call { api.retrieveTransactionWithHttpInfo(id) }
}

/** Fintech transfers: `/v1/fintech/transfers`. */
class Transfers internal constructor(private val plinth: Plinth) {
    private val api = FintechTransfersApi(plinth.base, plinth.httpClient)

    /** `createTransfer`, synchronous: the `posted` transfer. One Idempotency-Key, so money moves once. */
    fun create(params: CreateTransferRequest, idempotencyKey: String? = null): Transfer =
        plinth.call { api.createTransferWithHttpInfo(params, idempotencyKey) }

    /** `retrieveTransfer`. */
    fun retrieve(id: String): Transfer = plinth.call { api.retrieveTransferWithHttpInfo(id) }

    /** `listTransfers`: every transfer (from or to [accountId], if given), newest first, a page at a time. */
    fun list(accountId: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<Transfer> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(accountId, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listTransfers`: one page. */
    fun listPage(accountId: String? = null, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): TransferList =
        plinth.call { api.listTransfersWithHttpInfo(accountId, limit, startingAfter, endingBefore) }
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
}

/** The query of a list page: the cursors and the filters, null ones left out by [Plinth.get]. */
internal fun query(limit: Int?, startingAfter: String?, endingBefore: String?, vararg filters: Pair<String, String?>) =
    mapOf("limit" to limit, "starting_after" to startingAfter, "ending_before" to endingBefore) + filters
