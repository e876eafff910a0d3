package dev.plinth;

/**
 * The filters of {@code events().list} and {@code listPage}, optional and combined:
 * {@code new EventFilter().type("fintech.transfer.posted").created(new Created().gte(t))}.
 */
public final class EventFilter {
  private String type;
  private Created created;

  /** Only events of this type (e.g. {@code fintech.account.created}). */
  public EventFilter type(String type) { this.type = type; return this; }
  /** Only events created within these bounds. */
  public EventFilter created(Created created) { this.created = created; return this; }

  public String getType() { return type; }
  public Created getCreated() { return created; }

  static EventFilter orDefault(EventFilter f) { return f == null ? new EventFilter() : f; }
}
