/** `plinth.requests`: /v1/requests, the request log, newest first (docs/api.md#the-request-log). */
import type { ListRequestsMethodEnum, RequestLog, RequestLogList, RequestsApi } from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import { type CreatedFilter, createdQuery } from './filters.js';

export interface RequestFilters {
  /** Only answers with this HTTP status, e.g. 409. */
  status?: number;
  /** Only requests with this method: `GET`, `HEAD`, `POST` or `DELETE`. */
  method?: ListRequestsMethodEnum;
  /** Only requests made within these bounds. */
  created?: CreatedFilter;
}

export class RequestsResource {
  readonly #api: RequestsApi;
  readonly #call: Call;

  constructor(api: RequestsApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /**
   * Every recorded request, newest first: `for await (const r of plinth.requests.list({ status: 409 }))`. An entry
   * is written a few hundred milliseconds after its answer.
   */
  list(params: ListParams & RequestFilters = {}): AsyncGenerator<RequestLog, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page, newest first. */
  listPage(params: PageParams & RequestFilters = {}): Promise<WithRequestId<RequestLogList>> {
    const { status, method, created } = params;
    return this.#call(() =>
      this.#api.listRequestsRaw({ ...pageQuery(params), status, method, created: createdQuery(created) }),
    );
  }

  /** One request, by the `Request-Id` of its answer. */
  retrieve(id: string): Promise<WithRequestId<RequestLog>> {
    return this.#call(() => this.#api.retrieveRequestRaw({ id }));
  }
}
