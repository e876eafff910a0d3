package dev.plinth

/** One page request: `limit`, `starting_after`, `ending_before`. */
internal typealias FetchPage<L> = (limit: Int?, startingAfter: String?, endingBefore: String?) -> L

/**
 * Auto-pagination as a lazy [Sequence]: `starting_after` = the last id of a page while `has_more`, or, when the
 * caller began with [endingBefore], `ending_before` = the first id of the page (the pages then walk newer).
 */
internal fun <L, T> paginate(
    limit: Int?,
    startingAfter: String?,
    endingBefore: String?,
    fetch: FetchPage<L>,
    data: (L) -> List<T>,
    hasMore: (L) -> Boolean,
    id: (T) -> String,
): Sequence<T> = sequence {
    var after = startingAfter
    var before = endingBefore
    while (true) {
        val page = fetch(limit, after, before)
        val items = data(page)
        yieldAll(items)
        if (!hasMore(page) || items.isEmpty()) break
        if (endingBefore != null) before = id(items.first()) else after = id(items.last())
    }
}
