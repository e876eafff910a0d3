package dev.plinth;

import dev.plinth.client.model.WebhookEndpointWithSecret;
import java.util.List;
import java.util.Map;

/**
 * A webhook endpoint with its signing secret, as {@code webhookEndpoints().create} and {@code rotateSecret} answer:
 * {@link #getSecret()} is a plain, non-null string. The one exception is an idempotent replay
 * ({@link #isReplayed()}), whose answer carries no secret: {@link #getSecret()} then throws
 * {@link SecretUnavailableException}.
 */
public final class CreatedWebhookEndpoint {
  private final WebhookEndpointWithSecret raw;
  private final boolean replayed;

  CreatedWebhookEndpoint(WebhookEndpointWithSecret raw, boolean replayed) {
    this.raw = raw;
    this.replayed = replayed;
  }

  /** {@code whsec_…}: what {@link Webhook#verify} checks deliveries with; shown only here. */
  public String getSecret() {
    if (raw.getSecret() == null) {
      throw new SecretUnavailableException("secret", raw.getId(), "rotate the endpoint's secret to get a new one");
    }
    return raw.getSecret();
  }

  /** {@code Idempotent-Replayed: true}: the stored answer of an earlier request with the same key, without secret. */
  public boolean isReplayed() { return replayed; }

  public String getId() { return raw.getId(); }
  public String getObject() { return raw.getObject(); }
  public String getUrl() { return raw.getUrl(); }
  public List<String> getEnabledEvents() { return raw.getEnabledEvents(); }
  public String getDescription() { return raw.getDescription(); }
  public Map<String, String> getMetadata() { return raw.getMetadata(); }
  public String getStatus() { return raw.getStatus(); }
  public String getDisabledReason() { return raw.getDisabledReason(); }
  public Boolean getLivemode() { return raw.getLivemode(); }
  public String getCreatedAt() { return raw.getCreatedAt(); }

  @Override
  public String toString() {
    return "CreatedWebhookEndpoint{id=" + raw.getId() + ", url=" + raw.getUrl() + ", replayed=" + replayed + "}";
  }
}
