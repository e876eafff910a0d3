package dev.plinth;

/** The filter of {@code transactions().list} and {@code listPage}: {@code new TransactionFilter().created(…)}. */
public final class TransactionFilter {
  private Created created;

  /** Only transactions created within these bounds. */
  public TransactionFilter created(Created created) { this.created = created; return this; }

  public Created getCreated() { return created; }

  static TransactionFilter orDefault(TransactionFilter f) { return f == null ? new TransactionFilter() : f; }
}
