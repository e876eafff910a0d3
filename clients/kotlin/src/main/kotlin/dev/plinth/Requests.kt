package dev.plinth

import dev.plinth.client.apis.RequestsApi
import dev.plinth.client.models.RequestLog
import dev.plinth.client.models.RequestLogList

/**
 * The request log (docs/api.md#the-request-log): every request made with the organisation's keys, newest first:
 * `/v1/requests`. An entry is written a few hundred milliseconds after its answer, so a request just made may not be
 * listed yet.
 */
class Requests internal constructor(private val plinth: Plinth) {
    private val api = RequestsApi(plinth.base, plinth.httpClient)

    /**
     * `listRequests`: every recorded request (answered with [status], made with [method] — `GET`, `HEAD`, `POST` or
     * `DELETE` — within [created], each if given), newest first, a page of [limit] at a time.
     */
    fun list(
        status: Int? = null,
        method: String? = null,
        created: Created? = null,
        limit: Int? = null,
        startingAfter: String? = null,
        endingBefore: String? = null,
    ): Sequence<RequestLog> =
        paginate(limit, startingAfter, endingBefore, { l, a, b -> listPage(status, method, created, l, a, b) }, { it.`data` }, { it.hasMore }, { it.id })

    /** `listRequests`: one page. The filters go out as the other lists' do (`created[gte]=…`, see [query]). */
    fun listPage(
        status: Int? = null,
        method: String? = null,
        created: Created? = null,
        limit: Int? = null,
        startingAfter: String? = null,
        endingBefore: String? = null,
    ): RequestLogList =
        plinth.get(
            "/v1/requests",
            query(limit, startingAfter, endingBefore, "status" to status?.toString(), "method" to method, created = created),
            RequestLogList::class.java,
        )

    /** `retrieveRequest`: one request, with its body, by the `Request-Id` of its answer. */
    fun retrieve(id: String): RequestLog = plinth.call { api.retrieveRequestWithHttpInfo(id) }
}
