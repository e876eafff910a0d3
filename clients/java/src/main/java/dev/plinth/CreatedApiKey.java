package dev.plinth;

import dev.plinth.client.model.NewApiKey;
import dev.plinth.client.model.NewApiKeyPermissionsAnyOf0;

/**
 * A new API key with its secret, as {@code api_keys().create} and {@link Plinth#signUp} answer: {@link #getKey()}
 * is a plain, non-null string. The one exception is an idempotent replay ({@link #isReplayed()}), whose answer
 * carries no secret: {@link #getKey()} then throws {@link SecretUnavailableException}.
 */
public final class CreatedApiKey {
  private final NewApiKey raw;
  private final boolean replayed;

  CreatedApiKey(NewApiKey raw, boolean replayed) {
    this.raw = raw;
    this.replayed = replayed;
  }

  /** The secret ({@code sk_test_…} or {@code sk_live_…}): keep it, it is shown only here. */
  public String getKey() {
    if (raw.getKey() == null) {
      throw new SecretUnavailableException("key", raw.getId(), "revoke this key and create another");
    }
    return raw.getKey();
  }

  /** {@code Idempotent-Replayed: true}: the stored answer of an earlier request with the same key, without secret. */
  public boolean isReplayed() { return replayed; }

  /** The key id, {@code key_…}: what you retrieve and revoke; not a secret. */
  public String getId() { return raw.getId(); }
  public String getObject() { return raw.getObject(); }
  public String getMode() { return raw.getMode(); }
  public String getHint() { return raw.getHint(); }
  public String getName() { return raw.getName(); }
  public Boolean getLivemode() { return raw.getLivemode(); }
  public String getCreatedAt() { return raw.getCreatedAt(); }
  public String getRevokedAt() { return raw.getRevokedAt(); }
  public String getLastUsedAt() { return raw.getLastUsedAt(); }
  /** A restricted key's level for each of the eight groups ({@code getAccounts()}, …); null for a full key. */
  public NewApiKeyPermissionsAnyOf0 getPermissions() { return raw.getPermissions(); }

  @Override
  public String toString() {
    return "CreatedApiKey{id=" + raw.getId() + ", hint=" + raw.getHint() + ", replayed=" + replayed + "}";
  }
}
