/** `plinth.apiKeys`: /v1/api_keys. */
import type {
  APIKeysApi,
  ApiKey,
  ApiKeyList,
  CreateApiKeyRequest,
  CreateApiKeyRequestPermissions,
  NewApiKey as GeneratedNewApiKey,
} from '../../generated/index.js';
import { type Call, requireSecret, type WithRequestId, type WithSecret } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import type { RequestOptions } from './options.js';

/**
 * A new key with its secret `key` (`sk_…`, or `rk_…` when restricted), a plain string: store it now, it is not shown
 * again. On an idempotent replay (`replayed`) the server has no copy to send, and reading `key` throws
 * ReplayedSecretError.
 */
export type NewApiKey = WithSecret<GeneratedNewApiKey, 'key'>;

/** A key object's permissions: every group's level; `null` on a full key (docs/api.md#keys-and-the-sandbox). */
export type ApiKeyPermissions = NonNullable<ApiKey['permissions']>;

/**
 * What a restricted key may do, group by group: `none`, `read` or `write` (which includes read); a group left out
 * is `none`. Only the known groups: the generated type also takes any other name, so a misspelt group would compile.
 */
export type Permissions = { [G in keyof ApiKeyPermissions]?: CreateApiKeyRequestPermissions[G] };

/** `mode` defaults to the calling key's; `name` is a label for people; `permissions` makes a restricted key. */
export type CreateApiKeyParams = Omit<CreateApiKeyRequest, 'permissions'> & { permissions?: Permissions };

export class ApiKeysResource {
  readonly #api: APIKeysApi;
  readonly #call: Call;

  constructor(api: APIKeysApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** A full key (`sk_…`), or with `permissions` a restricted one (`rk_…`) that may do only that. */
  async create(params: CreateApiKeyParams = {}, options: RequestOptions = {}): Promise<WithRequestId<NewApiKey>> {
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
