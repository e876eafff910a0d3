package dev.plinth;

import dev.plinth.client.model.ListAccountsCreatedParameter;
import dev.plinth.client.model.ListEventsCreatedParameter;
import java.time.Instant;

/**
 * Bounds on when objects were created, for the {@code created} filter of a list: {@code new Created().gte(t)},
 * {@code new Created().gte(from).lt(to)}. Sent as {@code created[gte]=…&created[lt]=…}. A time is a string the server
 * reads as {@code YYYY-MM-DDTHH:MMZ} (a whole minute) or RFC 3339 with an offset ({@code 2026-11-24T09:30:00+01:00}),
 * or an {@link Instant}; any other text is refused with 400 {@code parameter_invalid}.
 */
public final class Created {
  private String gte;
  private String gt;
  private String lte;
  private String lt;

  /** Created at or after {@code time}. */
  public Created gte(String time) { this.gte = time; return this; }
  public Created gte(Instant time) { return gte(time.toString()); }
  /** Created after {@code time}. */
  public Created gt(String time) { this.gt = time; return this; }
  public Created gt(Instant time) { return gt(time.toString()); }
  /** Created at or before {@code time}. */
  public Created lte(String time) { this.lte = time; return this; }
  public Created lte(Instant time) { return lte(time.toString()); }
  /** Created before {@code time}. */
  public Created lt(String time) { this.lt = time; return this; }
  public Created lt(Instant time) { return lt(time.toString()); }

  public String getGte() { return gte; }
  public String getGt() { return gt; }
  public String getLte() { return lte; }
  public String getLt() { return lt; }

  // The generated API names the same four bounds twice (one class for events, one for the other lists).
  static ListAccountsCreatedParameter forLists(Created c) {
    return c == null ? null : new ListAccountsCreatedParameter().gte(c.gte).gt(c.gt).lte(c.lte).lt(c.lt);
  }

  static ListEventsCreatedParameter forEvents(Created c) {
    return c == null ? null : new ListEventsCreatedParameter().gte(c.gte).gt(c.gt).lte(c.lte).lt(c.lt);
  }

  @Override
  public String toString() {
    return "Created{gte=" + gte + ", gt=" + gt + ", lte=" + lte + ", lt=" + lt + "}";
  }
}
