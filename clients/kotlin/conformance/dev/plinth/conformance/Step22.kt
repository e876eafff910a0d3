package dev.plinth.conformance

import com.fasterxml.jackson.databind.ObjectMapper
import dev.plinth.Created
import dev.plinth.Plinth
import dev.plinth.client.models.RequestLog
import java.time.Duration
import java.time.Instant

/**
 * Step 22 of the scenario: the request log. The create of step 2 is found by its `Request-Id` through the filters
 * (method, status, created[gte]), then retrieved with its body.
 */
internal fun requestLogStep(plinth: Plinth, firstRequestId: String) {
    step("22 the request log: list with filters, retrieve") {
        val since = Created(gte = Instant.now().minus(Duration.ofHours(1)).toString())
        var found: RequestLog? = null
        // The log is written in batches, a few hundred milliseconds after each answer.
        val deadline = System.nanoTime() + 10_000_000_000L
        while (found == null && System.nanoTime() < deadline) {
            found = plinth.requests.list(method = "POST", status = "200", created = since, limit = 100).firstOrNull { it.id == firstRequestId }
            if (found == null) Thread.sleep(100)
        }
        check(found != null) { "the create of step 2 ($firstRequestId) is not in the request log within 10 s" }
        check(found!!.route == "/v1/fintech/accounts") { "route ${found.route}" }
        val entry = plinth.requests.retrieve(firstRequestId)
        check(entry.id == firstRequestId && entry.method == "POST" && entry.status == 200 && entry.source == "api") {
            "entry ${entry.id} ${entry.method} ${entry.status} ${entry.source}"
        }
        val sent = ObjectMapper().readTree(entry.body ?: "{}")
        check(sent.path("type").asText() == "business" && sent.path("country").asText() == "US") { "body ${entry.body}" }
        val page = plinth.requests.listPage(created = Created(gte = "2000-01-01T00:00Z"), limit = 1)
        check(page.`data`.size == 1 && page.hasMore) { "a page of 1: ${page.`data`.size} entries, has_more ${page.hasMore}" }
    }
}
