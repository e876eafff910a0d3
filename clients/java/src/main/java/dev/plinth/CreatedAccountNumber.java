package dev.plinth;

import dev.plinth.client.model.AccountNumber;

/**
 * A new account number, as {@code accountNumbers().create} answers: {@link #getAccountNumber()} is the 12 digits, a
 * plain, non-null string, shown only in this answer. The one exception is an idempotent replay
 * ({@link #isReplayed()}), whose answer carries no number: {@link #getAccountNumber()} then throws
 * {@link SecretUnavailableException}. Every later read shows {@link #getAccountNumberLast4()} only.
 */
public final class CreatedAccountNumber {
  private final AccountNumber raw;
  private final boolean replayed;

  CreatedAccountNumber(AccountNumber raw, boolean replayed) {
    this.raw = raw;
    this.replayed = replayed;
  }

  /** The 12 digits to give payers, with {@link #getRoutingNumber()}; shown only here. */
  public String getAccountNumber() {
    if (raw.getAccountNumber() == null) {
      throw new SecretUnavailableException(
          "account_number", raw.getId(), "disable this account number and create another");
    }
    return raw.getAccountNumber();
  }

  /** {@code Idempotent-Replayed: true}: the stored answer of an earlier request with the same key, without number. */
  public boolean isReplayed() { return replayed; }

  public String getId() { return raw.getId(); }
  public String getObject() { return raw.getObject(); }
  public String getAccountId() { return raw.getAccountId(); }
  public String getRoutingNumber() { return raw.getRoutingNumber(); }
  public String getAccountNumberLast4() { return raw.getAccountNumberLast4(); }
  public String getName() { return raw.getName(); }
  public String getStatus() { return raw.getStatus(); }
  public String getInboundDebits() { return raw.getInboundDebits(); }
  public Boolean getLivemode() { return raw.getLivemode(); }
  public String getCreatedAt() { return raw.getCreatedAt(); }

  @Override
  public String toString() {
    return "CreatedAccountNumber{id=" + raw.getId() + ", last4=" + raw.getAccountNumberLast4() + ", replayed="
        + replayed + "}";
  }
}
