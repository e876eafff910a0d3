package dev.plinth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The filters of {@code transfers().list} and {@code listPage}, all optional and combined (every one must hold):
 * {@code new TransferFilter().accountId("acct_…").status("pending").metadata("order", "A-1")}.
 */
public final class TransferFilter {
  private String accountId;
  private String status;
  private Created created;
  private final Map<String, String> metadata = new LinkedHashMap<>();

  /** Only the transfers from or to this account. */
  public TransferFilter accountId(String accountId) { this.accountId = accountId; return this; }
  /** Only transfers in this status: {@code pending}, {@code posted}, {@code voided}, {@code expired}. */
  public TransferFilter status(String status) { this.status = status; return this; }
  /** Only transfers created within these bounds. */
  public TransferFilter created(Created created) { this.created = created; return this; }
  /** Only transfers whose metadata has {@code key} set to exactly {@code value} ({@code metadata[key]=value}). */
  public TransferFilter metadata(String key, String value) { this.metadata.put(key, value); return this; }
  /** Every pair of {@code pairs}, as {@link #metadata(String, String)} does for one. */
  public TransferFilter metadata(Map<String, String> pairs) { this.metadata.putAll(pairs); return this; }

  public String getAccountId() { return accountId; }
  public String getStatus() { return status; }
  public Created getCreated() { return created; }
  public Map<String, String> getMetadata() { return metadata; }

  static TransferFilter orDefault(TransferFilter f) { return f == null ? new TransferFilter() : f; }
}
