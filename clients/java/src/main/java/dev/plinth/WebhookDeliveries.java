package dev.plinth;

import dev.plinth.client.api.WebhooksApi;
import dev.plinth.client.model.WebhookDelivery;

/** Webhook deliveries (listed from their endpoint or event): {@code /v1/webhook_deliveries}. */
public final class WebhookDeliveries {
  private final Plinth plinth;
  private final WebhooksApi api;

  WebhookDeliveries(Plinth plinth) {
    this.plinth = plinth;
    this.api = new WebhooksApi(plinth.apiClient());
  }

  /** {@code retryWebhookDelivery}: one attempt now, outside the schedule; the delivery with its attempts. */
  public WebhookDelivery retry(String id) { return retry(id, null); }

  public WebhookDelivery retry(String id, Plinth.RequestOptions options) {
    return plinth.call(() -> api.retryWebhookDeliveryWithHttpInfo(id, Plinth.key(options)));
  }
}
