package dev.plinth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The filters of {@code accounts().list} and {@code listPage}, all optional and combined (every one must hold):
 * {@code new AccountFilter().status("frozen").metadata("customer", "c-42").created(new Created().gte(t))}.
 */
public final class AccountFilter {
  private String status;
  private Created created;
  private final Map<String, String> metadata = new LinkedHashMap<>();

  /** Only accounts in this status: {@code active}, {@code frozen}, {@code closed}. */
  public AccountFilter status(String status) { this.status = status; return this; }
  /** Only accounts created within these bounds. */
  public AccountFilter created(Created created) { this.created = created; return this; }
  /** Only accounts whose metadata has {@code key} set to exactly {@code value} (sent as {@code metadata[key]=value}). */
  public AccountFilter metadata(String key, String value) { this.metadata.put(key, value); return this; }
  /** Every pair of {@code pairs}, as {@link #metadata(String, String)} does for one. */
  public AccountFilter metadata(Map<String, String> pairs) { this.metadata.putAll(pairs); return this; }

  public String getStatus() { return status; }
  public Created getCreated() { return created; }
  public Map<String, String> getMetadata() { return metadata; }

  static AccountFilter orDefault(AccountFilter f) { return f == null ? new AccountFilter() : f; }
}
