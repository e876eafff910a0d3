package dev.plinth

import java.net.URLEncoder

/**
 * Bounds on when objects were created, for the `created` filter of a list: `Created(gte = "2026-11-24T00:00Z")`,
 * sent as `created[gte]=…`. A time is `YYYY-MM-DDTHH:MMZ` (a whole minute) or RFC 3339 with an offset
 * (`2026-11-24T09:30:00+01:00`, or `Instant.toString()`); any other text is refused with 400 `parameter_invalid`.
 */
data class Created(
    /** Created at or after this time. */
    val gte: String? = null,
    /** Created after this time. */
    val gt: String? = null,
    /** Created at or before this time. */
    val lte: String? = null,
    /** Created before this time. */
    val lt: String? = null,
)

/**
 * The query of a list page: the cursors and the filters, null ones left out, each name as it goes on the wire
 * (`created[gte]`, `metadata[<key>]` with the key percent-encoded; OpenAPI's deepObject) for [Plinth.get].
 */
internal fun query(
    limit: Int?,
    startingAfter: String?,
    endingBefore: String?,
    vararg filters: Pair<String, String?>,
    created: Created? = null,
    metadata: Map<String, String>? = null,
): Map<String, Any?> {
    val q = linkedMapOf<String, Any?>("limit" to limit, "starting_after" to startingAfter, "ending_before" to endingBefore)
    q += filters
    if (created != null) {
        q["created[gte]"] = created.gte
        q["created[gt]"] = created.gt
        q["created[lte]"] = created.lte
        q["created[lt]"] = created.lt
    }
    metadata?.forEach { (key, value) -> q["metadata[${encodeQuery(key)}]"] = value }
    return q
}

/** A query component, percent-encoded (`%20` for a space). */
internal fun encodeQuery(text: String): String = URLEncoder.encode(text, Charsets.UTF_8).replace("+", "%20")

/** A path segment, percent-encoded. */
internal fun encode(segment: String): String = URLEncoder.encode(segment, Charsets.UTF_8).replace("+", "%20")
