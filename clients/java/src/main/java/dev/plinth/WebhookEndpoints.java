package dev.plinth;

import dev.plinth.client.ApiResponse;
import dev.plinth.client.api.WebhooksApi;
import dev.plinth.client.model.CreateWebhookEndpointRequest;
import dev.plinth.client.model.DeletedWebhookEndpoint;
import dev.plinth.client.model.Event;
import dev.plinth.client.model.RotateWebhookEndpointSecretRequest;
import dev.plinth.client.model.UpdateWebhookEndpointRequest;
import dev.plinth.client.model.WebhookDelivery;
import dev.plinth.client.model.WebhookDeliveryList;
import dev.plinth.client.model.WebhookEndpoint;
import dev.plinth.client.model.WebhookEndpointList;
import dev.plinth.client.model.WebhookEndpointWithSecret;

/** Where events are sent, signed: {@code /v1/webhook_endpoints}. */
public final class WebhookEndpoints {
  private final Plinth plinth;
  private final WebhooksApi api;

  WebhookEndpoints(Plinth plinth) {
    this.plinth = plinth;
    this.api = new WebhooksApi(plinth.apiClient());
  }

  /** {@code createWebhookEndpoint}: the endpoint and its signing secret, shown in this answer only. */
  public CreatedWebhookEndpoint create(CreateWebhookEndpointRequest params) { return create(params, null); }

  public CreatedWebhookEndpoint create(CreateWebhookEndpointRequest params, Plinth.RequestOptions options) {
    ApiResponse<WebhookEndpointWithSecret> r =
        plinth.send(() -> api.createWebhookEndpointWithHttpInfo(params, Plinth.key(options)));
    return new CreatedWebhookEndpoint(r.getData(), Plinth.replayed(r));
  }

  /** {@code retrieveWebhookEndpoint}. */
  public WebhookEndpoint retrieve(String id) {
    return plinth.call(() -> api.retrieveWebhookEndpointWithHttpInfo(id));
  }

  /**
   * {@code updateWebhookEndpoint}: {@code url}, {@code enabled_events}, {@code description}, {@code status},
   * {@code metadata} ({@code .metadata(Metadata.changes(Map.of("team", "payments")))}; {@link Metadata#clearAll}).
   */
  public WebhookEndpoint update(String id, UpdateWebhookEndpointRequest params) { return update(id, params, null); }

  public WebhookEndpoint update(String id, UpdateWebhookEndpointRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.updateWebhookEndpointWithHttpInfo(id, params, Plinth.key(options)));
  }

  /** {@code updateWebhookEndpoint} with {@code "metadata": ""}: removes every key of its metadata. */
  public WebhookEndpoint clearMetadata(String id) { return clearMetadata(id, null); }

  public WebhookEndpoint clearMetadata(String id, Plinth.RequestOptions options) {
    return update(id, new UpdateWebhookEndpointRequest().metadata(Metadata.clearAll()), options);
  }

  /** {@code deleteWebhookEndpoint}: gone, with its deliveries. */
  public DeletedWebhookEndpoint delete(String id) {
    return plinth.call(() -> api.deleteWebhookEndpointWithHttpInfo(id));
  }

  /** {@code rotateWebhookEndpointSecret}: a new secret; the previous one keeps signing for a day. */
  public CreatedWebhookEndpoint rotateSecret(String id) { return rotateSecret(id, null, null); }

  /** The previous secret keeps signing for {@code expirePreviousInSeconds} (0–604800) beside the new one. */
  public CreatedWebhookEndpoint rotateSecret(String id, RotateWebhookEndpointSecretRequest params) {
    return rotateSecret(id, params, null);
  }

  public CreatedWebhookEndpoint rotateSecret(String id, RotateWebhookEndpointSecretRequest params,
      Plinth.RequestOptions options) {
    // The generated call would send a null body as the JSON text `null`, which the server refuses: send `{}`.
    RotateWebhookEndpointSecretRequest body = params == null ? new RotateWebhookEndpointSecretRequest() : params;
    ApiResponse<WebhookEndpointWithSecret> r =
        plinth.send(() -> api.rotateWebhookEndpointSecretWithHttpInfo(id, Plinth.key(options), body));
    return new CreatedWebhookEndpoint(r.getData(), Plinth.replayed(r));
  }

  /** {@code testWebhookEndpoint}: sends a {@code webhook_endpoint.test} event to this endpoint only. */
  public Event test(String id) { return test(id, null); }

  public Event test(String id, Plinth.RequestOptions options) {
    return plinth.call(() -> api.testWebhookEndpointWithHttpInfo(id, Plinth.key(options)));
  }

  /** {@code listWebhookEndpoints}: every endpoint, newest first, a page at a time. */
  public Iterable<WebhookEndpoint> list() { return list(null); }

  public Iterable<WebhookEndpoint> list(ListParams page) {
    return ListParams.paginate(page, this::listPage, WebhookEndpointList::getData, WebhookEndpointList::getHasMore,
        WebhookEndpoint::getId);
  }

  /** {@code listWebhookEndpoints}: one page. */
  public WebhookEndpointList listPage() { return listPage(null); }

  public WebhookEndpointList listPage(ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listWebhookEndpointsWithHttpInfo(p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore()));
  }

  /** {@code listWebhookEndpointDeliveries}: every delivery to this endpoint, newest first, a page at a time. */
  public Iterable<WebhookDelivery> listDeliveries(String id) { return listDeliveries(id, null, null); }

  public Iterable<WebhookDelivery> listDeliveries(String id, ListParams page) { return listDeliveries(id, null, page); }

  /** Only the deliveries in {@code status} ({@code pending}, {@code succeeded}, {@code failed}; null: all). */
  public Iterable<WebhookDelivery> listDeliveries(String id, String status, ListParams page) {
    return ListParams.paginate(page, cursor -> listDeliveriesPage(id, status, cursor), WebhookDeliveryList::getData,
        WebhookDeliveryList::getHasMore, WebhookDelivery::getId);
  }

  /** {@code listWebhookEndpointDeliveries}: one page. */
  public WebhookDeliveryList listDeliveriesPage(String id) { return listDeliveriesPage(id, null, null); }

  public WebhookDeliveryList listDeliveriesPage(String id, ListParams page) { return listDeliveriesPage(id, null, page); }

  public WebhookDeliveryList listDeliveriesPage(String id, String status, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listWebhookEndpointDeliveriesWithHttpInfo(id, p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore(), status));
  }
}
