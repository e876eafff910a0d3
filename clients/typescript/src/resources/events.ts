/** `plinth.events`: /v1/events, what happened, newest first (docs/api.md#events). */
import type {
  Event,
  EventList,
  EventsApi,
  ListEventsTypeEnum,
  WebhookDelivery,
  WebhookDeliveryList,
} from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import { eventStream, type StreamConnection, type StreamParams } from '../stream.js';
import { type CreatedFilter, createdQuery } from './filters.js';

export interface EventFilters {
  /** Only events of this type, e.g. `fintech.account.created`. */
  type?: ListEventsTypeEnum;
  /** Only events created within these bounds. */
  created?: CreatedFilter;
}

export class EventsResource {
  readonly #api: EventsApi;
  readonly #call: Call;
  readonly #stream: StreamConnection;

  constructor(api: EventsApi, call: Call, stream: StreamConnection) {
    this.#api = api;
    this.#call = call;
    this.#stream = stream;
  }

  /**
   * The live events, oldest first, as they happen (GET /v1/events/stream): `for await (const e of
   * plinth.events.stream())`. Resumes by itself after any disconnection, with no gap and no repeat; `after` starts
   * after that sequence (0: every event still kept). Stop with `break` or `signal`.
   */
  stream(params: StreamParams = {}): AsyncGenerator<Event, void, undefined> {
    return eventStream(this.#stream, params);
  }

  /** Every event, newest first (sequences decreasing): `for await (const e of plinth.events.list({ type }))`. */
  list(params: ListParams & EventFilters = {}): AsyncGenerator<Event, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page, newest first. */
  listPage(params: PageParams & EventFilters = {}): Promise<WithRequestId<EventList>> {
    return this.#call(() =>
      this.#api.listEventsRaw({ ...pageQuery(params), type: params.type, created: createdQuery(params.created) }),
    );
  }

  retrieve(id: string): Promise<WithRequestId<Event>> {
    return this.#call(() => this.#api.retrieveEventRaw({ id }));
  }

  /** Every delivery of one event, to every endpoint, newest first. */
  listDeliveries(id: string, params: ListParams = {}): AsyncGenerator<WebhookDelivery, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listDeliveriesPage(id, { ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page of an event's deliveries. */
  listDeliveriesPage(id: string, params: PageParams = {}): Promise<WithRequestId<WebhookDeliveryList>> {
    return this.#call(() => this.#api.listEventDeliveriesRaw({ id, ...pageQuery(params) }));
  }
}
