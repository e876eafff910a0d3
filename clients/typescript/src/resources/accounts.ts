/** `plinth.accounts`: /v1/fintech/accounts. */
import type {
  Account,
  AccountList,
  CloseAccountRequest,
  CreateAccountRequest,
  FintechAccountsApi,
  FreezeAccountRequest,
  ListAccountsStatusEnum,
} from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import { type CreatedFilter, createdQuery, type Metadata, type MetadataUpdate, metadataQuery } from './filters.js';
import type { RequestOptions } from './options.js';

export interface AccountFilters {
  /** Only accounts in this status. */
  status?: ListAccountsStatusEnum;
  /** Only accounts created within these bounds. */
  created?: CreatedFilter;
  /** Only accounts whose metadata has every one of these pairs, exactly. */
  metadata?: Metadata;
}

/** `update`'s parameters: only metadata changes. */
export interface UpdateAccountParams {
  metadata: MetadataUpdate;
}

export class AccountsResource {
  readonly #api: FintechAccountsApi;
  readonly #call: Call;

  constructor(api: FintechAccountsApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** One Idempotency-Key, reused by the retries (yours with `{ idempotencyKey }`); `metadata` is optional. */
  create(params: CreateAccountRequest, options: RequestOptions = {}): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.createAccountRaw({ createAccountRequest: params, ...options }));
  }

  retrieve(id: string): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.retrieveAccountRaw({ id }));
  }

  /** Changes the metadata only (see MetadataUpdate); allowed on a closed account. */
  update(id: string, params: UpdateAccountParams, options: RequestOptions = {}): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.updateAccountRaw({ id, updateAccountRequest: params, ...options }));
  }

  /**
   * Every account, newest first: `for await (const account of plinth.accounts.list({ status: 'frozen' }))`. Every
   * filter given must hold.
   */
  list(params: ListParams & AccountFilters = {}): AsyncGenerator<Account, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page, newest first. */
  listPage(params: PageParams & AccountFilters = {}): Promise<WithRequestId<AccountList>> {
    return this.#call(() =>
      this.#api.listAccountsRaw({
        ...pageQuery(params),
        status: params.status,
        created: createdQuery(params.created),
        metadata: metadataQuery(params.metadata),
      }),
    );
  }

  /** No debit and no credit until unfrozen; `reason` is required, `note` is for people. */
  freeze(id: string, params: FreezeAccountRequest, options: RequestOptions = {}): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.freezeAccountRaw({ id, freezeAccountRequest: params, ...options }));
  }

  unfreeze(id: string, options: RequestOptions = {}): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.unfreezeAccountRaw({ id, ...options }));
  }

  /** Final; the balance must be zero. */
  close(id: string, params: CloseAccountRequest = {}, options: RequestOptions = {}): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.closeAccountRaw({ id, closeAccountRequest: params, ...options }));
  }
}
