package dev.plinth.conformance;

import dev.plinth.CreatedApiKey;
import dev.plinth.EventStream;
import dev.plinth.ListParams;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.client.model.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * Step 25 of the scenario: the live event stream through the rewriting proxy, which splits each event's data over
 * two lines, adds a comment and a retry field, and loses the connection after every event (ended cleanly, then
 * cut). The iterator yields the last three listed events once each, in order, then a live one; a type filter holds;
 * closing it stops it; a revoked key's stream throws the typed error, 401.
 */
final class Step25 {
  private Step25() {}

  static void run(Plinth plinth, String key, String proxyUrl) {
    Conformance.steps("25 the event stream resumes across lost connections with no gap and no repeat", () -> {
      Plinth proxied = Plinth.builder().apiKey(key).baseUrl(proxyUrl).build();
      List<Event> listed = plinth.events().listPage(new ListParams().limit(3)).getData();
      Conformance.ensure(listed.size() == 3, listed.size() + " events listed");
      long newest = listed.get(0).getSequence();
      try (EventStream stream = proxied.events().stream(new EventStream.Params().after(newest - 3))) {
        for (int i = 2; i >= 0; i--) {
          Conformance.ensure(stream.hasNext(), "the stream ended");
          Event event = stream.next();
          Conformance.ensure(event.getId().equals(listed.get(i).getId())
              && event.getSequence().equals(listed.get(i).getSequence()),
              "streamed " + event.getId() + " (" + event.getSequence() + "), listed " + listed.get(i).getId());
        }
        String live = plinth.accounts().create(Conformance.businessUS()).getId();
        Event event = stream.next();
        Conformance.ensure(event.getSequence() == newest + 1 && "fintech.account.created".equals(event.getType())
            && live.equals(event.getData().getObject().get("id")),
            "live event " + event.getSequence() + " " + event.getType() + ", want " + (newest + 1) + " for " + live);
        stream.close();
        Conformance.ensure(!stream.hasNext(), "a closed stream has no next event");
      }
      List<Long> sequences = new ArrayList<>();
      try (EventStream typed = proxied.events().stream(
          new EventStream.Params().type("fintech.account.created").after(0L))) {
        for (Event event : typed) {
          Conformance.ensure("fintech.account.created".equals(event.getType()), "typed stream yielded " + event.getType());
          Conformance.ensure(sequences.isEmpty() || event.getSequence() > sequences.get(sequences.size() - 1),
              "sequences " + sequences + " then " + event.getSequence());
          sequences.add(event.getSequence());
          if (sequences.size() == 3) break;
        }
      }
      Conformance.ensure(sequences.size() == 3, "typed stream: " + sequences);

      CreatedApiKey doomed = plinth.apiKeys().create();
      plinth.apiKeys().revoke(doomed.getId());
      Plinth revoked = Plinth.builder().apiKey(doomed.getKey()).baseUrl(proxyUrl).build();
      try (EventStream refused = revoked.events().stream(null)) {
        PlinthException e = Conformance.error(refused::hasNext);
        Conformance.ensure(e.getStatus() == 401, "a revoked key's stream: " + e.getStatus() + " " + e.getCode());
      }
    });
  }
}
