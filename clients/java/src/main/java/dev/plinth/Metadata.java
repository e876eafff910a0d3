package dev.plinth;

import dev.plinth.client.model.UpdateWebhookEndpointRequestMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Metadata, the integrator's own references on accounts, transfers and webhook endpoints: a map of string to string
 * ({@code {}} when none; at most 50 keys of 1–40 characters without {@code [} or {@code ]}, values of at most 500).
 * Not for secrets: every response, event and list that shows the object shows its metadata.
 *
 * <p>An update's {@code metadata} is either changes ({@link #changes}: keys to set, a key given {@code ""} removed) or
 * {@code ""}, which removes every key ({@link #clearAll}); the generated model that carries either one is
 * {@link UpdateWebhookEndpointRequestMetadata}, for an account, a transfer and a webhook endpoint alike.
 */
public final class Metadata {
  private Metadata() {}

  /** Keys to set, and keys given {@code ""} to remove, for {@code UpdateWebhookEndpointRequest.metadata(…)}. */
  public static UpdateWebhookEndpointRequestMetadata changes(Map<String, String> metadata) {
    return new UpdateWebhookEndpointRequestMetadata(new LinkedHashMap<>(Objects.requireNonNull(metadata, "metadata")));
  }

  /** {@code ""}: every key removed. */
  public static UpdateWebhookEndpointRequestMetadata clearAll() {
    return new UpdateWebhookEndpointRequestMetadata("");
  }

  /** A list's {@code metadata[key]=value} filter, or none when empty. */
  static Map<String, String> filter(Map<String, String> pairs) {
    return pairs == null || pairs.isEmpty() ? null : pairs;
  }
}
