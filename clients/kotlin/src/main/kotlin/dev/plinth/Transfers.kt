package dev.plinth

import dev.plinth.client.apis.FintechTransfersApi
import dev.plinth.client.models.CreateTransferRequest
import dev.plinth.client.models.CreateTransferReversalRequest
import dev.plinth.client.models.PostTransferRequest
import dev.plinth.client.models.Transfer
import dev.plinth.client.models.TransferList
import dev.plinth.client.models.TransferReversal
import dev.plinth.client.models.TransferReversalList

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

    /**
     * `createTransferReversal`: moves money of a `posted` transfer back to its sender, [amount] of it (1 to what remains)
     * or, when null, all that remains (`postedAmount` − `amountReversed`). 409 `transfer_not_reversible` when it is
     * not posted or is fully reversed. One Idempotency-Key, so it acts once.
     */
    fun reverse(
        id: String,
        amount: Long? = null,
        description: String? = null,
        metadata: Map<String, String>? = null,
        idempotencyKey: String? = null,
    ): TransferReversal =
        plinth.call { api.createTransferReversalWithHttpInfo(id, idempotencyKey, CreateTransferReversalRequest(amount, description, metadata)) }

    /** `listTransferReversals`: every reversal of the transfer [id], newest first, a page of [limit] at a time. */
    fun listReversals(id: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): Sequence<TransferReversal> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listReversalsPage(id, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listTransferReversals`: one page. */
    fun listReversalsPage(id: String, limit: Int? = null, startingAfter: String? = null, endingBefore: String? = null): TransferReversalList =
        plinth.call { api.listTransferReversalsWithHttpInfo(id, limit, startingAfter, endingBefore) }

    /** `retrieveTransferReversal`: one reversal of the transfer [id]. */
    fun retrieveReversal(id: String, reversalId: String): TransferReversal =
        plinth.call { api.retrieveTransferReversalWithHttpInfo(id, reversalId) }
}
