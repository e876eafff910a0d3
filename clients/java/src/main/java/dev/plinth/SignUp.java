package dev.plinth;

/** A new sandbox organisation and its first key, usable at once: what {@link Plinth#signUp} answers. */
public final class SignUp {
  private final String orgId;
  private final CreatedApiKey apiKey;

  SignUp(String orgId, CreatedApiKey apiKey) {
    this.orgId = orgId;
    this.apiKey = apiKey;
  }

  public String getOrgId() { return orgId; }

  public CreatedApiKey getApiKey() { return apiKey; }

  /** The first key's secret, {@code sk_test_…} (a sign-up is never replayed, so it is always there). */
  public String getKey() { return apiKey.getKey(); }
}
