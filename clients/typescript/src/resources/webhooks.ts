/**
 * `plinth.webhookEndpoints` and `plinth.webhookDeliveries`: where events are sent, and each attempt
 * (docs/api.md#webhooks).
 */
import type {
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpoint,
  Event,
  WebhookEndpointWithSecret as GeneratedWithSecret,
  ListWebhookEndpointDeliveriesStatusEnum,
  RotateWebhookEndpointSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhooksApi,
} from '../../generated/index.js';
import { type Call, requireSecret, type WithRequestId, type WithSecret } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import type { MetadataUpdate } from './filters.js';
import type { RequestOptions } from './options.js';

/**
 * A created or rotated endpoint with its signing `secret` (`whsec_…`), a plain string: keep it, it is not shown
 * again. On an idempotent replay (`replayed`) the server has no copy to send, and reading `secret` throws
 * ReplayedSecretError.
 */
export type WebhookEndpointWithSecret = WithSecret<GeneratedWithSecret, 'secret'>;

/**
 * Create's parameters, with `enabled_events` as any iterable of event types (`['*']`: every type); `metadata` is
 * optional.
 */
export type CreateWebhookEndpointParams = Omit<CreateWebhookEndpointRequest, 'enabled_events'> & {
  enabled_events: Iterable<string>;
};

/** Update's parameters: only the fields given change; `metadata` as MetadataUpdate says. */
export type UpdateWebhookEndpointParams = Omit<UpdateWebhookEndpointRequest, 'enabled_events' | 'metadata'> & {
  enabled_events?: Iterable<string>;
  metadata?: MetadataUpdate;
};

export interface DeliveryFilters {
  /** Only deliveries in this status: `pending`, `succeeded`, `failed`. */
  status?: ListWebhookEndpointDeliveriesStatusEnum;
}

export class WebhookEndpointsResource {
  readonly #api: WebhooksApi;
  readonly #call: Call;

  constructor(api: WebhooksApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  async create(
    params: CreateWebhookEndpointParams,
    options: RequestOptions = {},
  ): Promise<WithRequestId<WebhookEndpointWithSecret>> {
    // The generated request type holds the (unique) event types as a Set; callers may pass an array.
    const request = { ...params, enabled_events: new Set(params.enabled_events) };
    const endpoint = await this.#call(() =>
      this.#api.createWebhookEndpointRaw({ createWebhookEndpointRequest: request, ...options }),
    );
    return requireSecret(endpoint, 'secret', endpoint.requestId) as WithRequestId<WebhookEndpointWithSecret>;
  }

  retrieve(id: string): Promise<WithRequestId<WebhookEndpoint>> {
    return this.#call(() => this.#api.retrieveWebhookEndpointRaw({ id }));
  }

  /** Every endpoint, newest first. */
  list(params: ListParams = {}): AsyncGenerator<WebhookEndpoint, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  listPage(params: PageParams = {}): Promise<WithRequestId<WebhookEndpointList>> {
    return this.#call(() => this.#api.listWebhookEndpointsRaw(pageQuery(params)));
  }

  /** Changes only the fields given (`url`, `enabled_events`, `description`, `metadata`, `status`). */
  update(
    id: string,
    params: UpdateWebhookEndpointParams,
    options: RequestOptions = {},
  ): Promise<WithRequestId<WebhookEndpoint>> {
    const { enabled_events, ...rest } = params;
    const request = enabled_events === undefined ? rest : { ...rest, enabled_events: new Set(enabled_events) };
    return this.#call(() =>
      this.#api.updateWebhookEndpointRaw({ id, updateWebhookEndpointRequest: request, ...options }),
    );
  }

  delete(id: string): Promise<WithRequestId<DeletedWebhookEndpoint>> {
    return this.#call(() => this.#api.deleteWebhookEndpointRaw({ id }));
  }

  /** A new secret; the previous one keeps signing for `expire_previous_in_seconds` (default: the server's). */
  async rotateSecret(
    id: string,
    params: RotateWebhookEndpointSecretRequest = {},
    options: RequestOptions = {},
  ): Promise<WithRequestId<WebhookEndpointWithSecret>> {
    const endpoint = await this.#call(() =>
      this.#api.rotateWebhookEndpointSecretRaw({ id, rotateWebhookEndpointSecretRequest: params, ...options }),
    );
    return requireSecret(endpoint, 'secret', endpoint.requestId) as WithRequestId<WebhookEndpointWithSecret>;
  }

  /** Sends a `webhook_endpoint.test` event to this endpoint only; answers the event. */
  test(id: string, options: RequestOptions = {}): Promise<WithRequestId<Event>> {
    return this.#call(() => this.#api.testWebhookEndpointRaw({ id, ...options }));
  }

  /** Every delivery to this endpoint, newest first. */
  listDeliveries(
    id: string,
    params: ListParams & DeliveryFilters = {},
  ): AsyncGenerator<WebhookDelivery, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listDeliveriesPage(id, { ...rest, ...cursor }), { starting_after, ending_before });
  }

  listDeliveriesPage(
    id: string,
    params: PageParams & DeliveryFilters = {},
  ): Promise<WithRequestId<WebhookDeliveryList>> {
    return this.#call(() =>
      this.#api.listWebhookEndpointDeliveriesRaw({ id, ...pageQuery(params), status: params.status }),
    );
  }
}

export class WebhookDeliveriesResource {
  readonly #api: WebhooksApi;
  readonly #call: Call;

  constructor(api: WebhooksApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** Sends the delivery again now (a `failed` one starts a new round of attempts); answers the delivery. */
  retry(id: string, options: RequestOptions = {}): Promise<WithRequestId<WebhookDelivery>> {
    return this.#call(() => this.#api.retryWebhookDeliveryRaw({ id, ...options }));
  }
}
