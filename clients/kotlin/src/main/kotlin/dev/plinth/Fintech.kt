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
import dev.plinth.client.models.PostTransferRequest
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
     * Allowed on a closed account.
     */
    fun update(id: String, metadata: Map<String, String>, idempotencyKey: String? = null): Account =
        plinth.request("POST", "/v1/fintech/accounts/${encode(id)}", mapOf("metadata" to metadata), Account::class.java, idempotencyKey)

    /** `updateAccount` with `"metadata": ""`: removes every key. */
    fun clearMetadata(id: String, idempotencyKey: String? = null): Account =
        plinth.request("POST", "/v1/fintech/accounts/${encode(id)}", mapOf("metadata" to ""), Account::class.java, idempotencyKey)

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

/** Fintech transfers: `/v1/fintech/transfers`. */
class Transfers internal constructor(private val plinth: Plinth) {
    private val api = FintechTransfersApi(plinth.base, plinth.httpClient)

    /**
     * `createTransfer`: `posted` at once, or, with `pending = true`, `pending`: the amount is held on the sender's
     * available balance until [post], [void] or the expiry (`expiresInSeconds`, 60–2592000, default 7 days). One
     * Idempotency-Key, so money moves once.
     */
    fun create(params: CreateTransferRequest, idempotencyKey: String? = null): Transfer =
        plinth.call { api.createTransferWithHttpInfo(params, idempotencyKey) }

    /** `retrieveTransfer`. */
    fun retrieve(id: String): Transfer = plinth.call { api.retrieveTransferWithHttpInfo(id) }

    /**
     * `listTransfers`: every transfer, newest first, a page at a time; only those from or to [accountId], in [status]
     * (`pending`, `posted`, `voided`, `expired`), created within [created], with every pair of [metadata], for each
     * filter given.
     */
    fun list(
        accountId: String? = null,
        limit: Int? = null,
        startingAfter: String? = null,
        endingBefore: String? = null,
        status: String? = null,
        created: Created? = null,
        metadata: Map<String, String>? = null,
    ): Sequence<Transfer> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(accountId, l, a, b, status, created, metadata) },
            { it.`data` }, { it.hasMore }, { it.id })

    /** `listTransfers`: one page (the filters go out as given, see [Accounts.listPage]). */
    fun listPage(
        accountId: String? = null,
        limit: Int? = null,
        startingAfter: String? = null,
        endingBefore: String? = null,
        status: String? = null,
        created: Created? = null,
        metadata: Map<String, String>? = null,
    ): TransferList =
        plinth.get("/v1/fintech/transfers",
            query(limit, startingAfter, endingBefore, "account_id" to accountId, "status" to status, created = created, metadata = metadata),
            TransferList::class.java)

    /** `updateTransfer`: sets each key of [metadata] to its value and removes each key given `""`. Any status. */
    fun update(id: String, metadata: Map<String, String>, idempotencyKey: String? = null): Transfer =
        plinth.request("POST", "/v1/fintech/transfers/${encode(id)}", mapOf("metadata" to metadata), Transfer::class.java, idempotencyKey)

    /** `updateTransfer` with `"metadata": ""`: removes every key. */
    fun clearMetadata(id: String, idempotencyKey: String? = null): Transfer =
        plinth.request("POST", "/v1/fintech/transfers/${encode(id)}", mapOf("metadata" to ""), Transfer::class.java, idempotencyKey)

    /**
     * `postTransfer`: settles a pending transfer, all of it or [amount] (1 to the pending amount; the rest goes back to
     * the sender's available balance): `posted`, `postedAmount` set. 409 `transfer_not_pending` when it is not
     * pending, `transfer_expired` after its expiry.
     */
    fun post(id: String, amount: Long? = null, idempotencyKey: String? = null): Transfer =
        plinth.call { api.postTransferWithHttpInfo(id, idempotencyKey, PostTransferRequest(amount = amount)) }

    /** `voidTransfer`: cancels a pending transfer, `voided`, its hold released and no money moved (409 as for [post]). */
    fun void(id: String, idempotencyKey: String? = null): Transfer = plinth.call { api.voidTransferWithHttpInfo(id, idempotencyKey) }
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

