package dev.plinth.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.Created;
import dev.plinth.ListParams;
import dev.plinth.Plinth;
import dev.plinth.RequestFilter;
import dev.plinth.client.model.RequestLog;
import dev.plinth.client.model.RequestLogList;
import java.time.Duration;
import java.time.Instant;

/**
 * Step 22 of the scenario: the request log. The create of step 2 is found by its {@code Request-Id} through the
 * filters (method, status, created[gte]), then retrieved with its body.
 */
final class Step22 {
  private Step22() {}

  static void run(Plinth plinth, String firstRequestId) {
    Conformance.steps("22 the request log: list with filters, retrieve", () -> {
      RequestFilter posts = new RequestFilter().method("POST").status("200")
          .created(new Created().gte(Instant.now().minus(Duration.ofHours(1))));
      RequestLog found = null;
      // The log is written in batches, a few hundred milliseconds after each answer.
      for (long deadline = System.nanoTime() + 10_000_000_000L; found == null && System.nanoTime() < deadline; ) {
        for (RequestLog r : plinth.requests().list(posts, new ListParams().limit(100))) {
          if (r.getId().equals(firstRequestId)) found = r;
        }
        if (found == null) Thread.sleep(100);
      }
      Conformance.ensure(found != null, "the create of step 2 (" + firstRequestId + ") is not in the log within 10 s");
      Conformance.ensure("/v1/fintech/accounts".equals(found.getRoute()), "route " + found.getRoute());
      RequestLog entry = plinth.requests().retrieve(firstRequestId);
      Conformance.ensure(firstRequestId.equals(entry.getId()) && "POST".equals(entry.getMethod())
          && entry.getStatus() == 200 && "api".equals(entry.getSource()),
          "entry " + entry.getId() + " " + entry.getMethod() + " " + entry.getStatus() + " " + entry.getSource());
      JsonNode sent = new ObjectMapper().readTree(entry.getBody() == null ? "{}" : entry.getBody());
      Conformance.ensure("business".equals(sent.path("type").asText()) && "US".equals(sent.path("country").asText()),
          "body " + entry.getBody());
      RequestLogList page = plinth.requests().listPage(new RequestFilter().created(new Created().gte("2000-01-01T00:00Z")),
          new ListParams().limit(1));
      Conformance.ensure(page.getData().size() == 1 && Boolean.TRUE.equals(page.getHasMore()),
          "a page of 1: " + page.getData().size() + " entries, has_more " + page.getHasMore());
    });
  }
}
