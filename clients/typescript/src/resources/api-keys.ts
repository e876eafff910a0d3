/** `plinth.apiKeys`: /v1/api_keys. */
import type {
  APIKeysApi,
  ApiKey,
  ApiKeyList,
  CreateApiKeyRequest,
  NewApiKey as GeneratedNewApiKey,
} from '../../generated/index.js';
import { type Call, requireSecret, type WithRequestId, type WithSecret } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import type { RequestOptions } from './options.js';

/**
 * A new key with its secret `key` (`sk_test_…`, `sk_live_…`), a plain string: store it now, it is not shown again.
 * On an idempotent replay (`replayed`) the server has no copy to send, and reading `key` throws ReplayedSecretError.
 */
export type NewApiKey = WithSecret<GeneratedNewApiKey, 'key'>;

export class ApiKeysResource {
  readonly #api: APIKeysApi;
  readonly #call: Call;

  constructor(api: APIKeysApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** `mode` defaults to the calling key's; `name` is a label for people. */
  async create(params: CreateApiKeyRequest = {}, options: RequestOptions = {}): Promise<WithRequestId<NewApiKey>> {
    const created = await this.#call(() => this.#api.createApiKeyRaw({ createApiKeyRequest: params, ...options }));
    return requireSecret(created, 'key', created.requestId) as WithRequestId<NewApiKey>;
  }

  retrieve(id: string): Promise<WithRequestId<ApiKey>> {
    return this.#call(() => this.#api.retrieveApiKeyRaw({ id }));
  }

  /** Every key of the caller's mode, newest first. */
  list(params: ListParams = {}): AsyncGenerator<ApiKey, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  listPage(params: PageParams = {}): Promise<WithRequestId<ApiKeyList>> {
    return this.#call(() => this.#api.listApiKeysRaw(pageQuery(params)));
  }

  /** Stops the key working at once; harmless to repeat. */
  revoke(id: string, options: RequestOptions = {}): Promise<WithRequestId<ApiKey>> {
    return this.#call(() => this.#api.revokeApiKeyRaw({ id, ...options }));
  }
}
