package dev.plinth.conformance

import dev.plinth.Plinth

/**
 * Step 25 of the scenario: the live event stream through the rewriting proxy, which splits each event's data over two
 * lines, adds a comment and a retry field, and loses the connection after every event (ended cleanly, then cut). The
 * sequence yields the last three listed events once each, in order, then a live one; a type filter holds; closing it
 * stops it; a revoked key's stream throws the typed error, 401.
 */
internal fun eventStreamStep(plinth: Plinth, key: String, proxyUrl: String) {
    step("25 the event stream resumes across lost connections with no gap and no repeat") {
        val proxied = Plinth(apiKey = key, baseUrl = proxyUrl)
        val listed = plinth.events.listPage(limit = 3).`data`
        check(listed.size == 3) { "${listed.size} events listed" }
        val newest = listed[0].sequence.toLong()
        proxied.events.stream(after = newest - 3).use { stream ->
            val events = stream.iterator()
            for (i in 2 downTo 0) {
                check(events.hasNext()) { "the stream ended" }
                val event = events.next()
                check(event.id == listed[i].id && event.sequence == listed[i].sequence) {
                    "streamed ${event.id} (${event.sequence}), listed ${listed[i].id} (${listed[i].sequence})"
                }
            }
            val live = plinth.accounts.create(business("US")).id
            val event = events.next()
            check(event.sequence.toLong() == newest + 1 && event.type == "fintech.account.created" && event.`data`.`object`["id"] == live) {
                "live event ${event.sequence} ${event.type}, want ${newest + 1} for $live"
            }
            stream.close()
            check(!events.hasNext()) { "a closed stream has no next event" }
        }
        val sequences = proxied.events.stream(type = "fintech.account.created", after = 0).use { typed ->
            typed.take(3).toList().onEach { check(it.type == "fintech.account.created") { "typed stream yielded ${it.type}" } }.map { it.sequence }
        }
        check(sequences.size == 3 && sequences.zipWithNext().all { (a, b) -> b > a }) { "typed stream: $sequences" }

        val doomed = plinth.apiKeys.create()
        plinth.apiKeys.revoke(doomed.id)
        Plinth(apiKey = doomed.key, baseUrl = proxyUrl).events.stream().use { refused ->
            val e = expectError { refused.iterator().hasNext() }
            check(e.status == 401) { "a revoked key's stream: ${e.status} ${e.code}" }
        }
    }
}
