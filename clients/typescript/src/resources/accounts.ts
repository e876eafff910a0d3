/**
 * `plinth.accounts`: /v1/fintech/accounts, with each account's balances at a moment and its statements
 * (docs/api.md#balances-over-time-and-statements).
 */
import type {
  Account,
  AccountBalances,
  AccountList,
  AccountStatement,
  CloseAccountRequest,
  CreateAccountRequest,
  FintechAccountsApi,
  FintechTransactionsApi,
  FreezeAccountRequest,
  ListAccountsStatusEnum,
} from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import {
  type ApiTime,
  type CreatedFilter,
  createdQuery,
  type Metadata,
  type MetadataUpdate,
  metadataQuery,
  timeQuery,
} from './filters.js';
import type { RequestOptions } from './options.js';

export interface AccountFilters {
  /** Only accounts in this status. */
  status?: ListAccountsStatusEnum;
  /** Only accounts created within these bounds. */
  created?: CreatedFilter;
  /** Only accounts whose metadata has every one of these pairs, exactly. */
  metadata?: Metadata;
}

/** `update`'s parameters: the metadata, the nickname or both; what is not given stays. */
export interface UpdateAccountParams {
  metadata?: MetadataUpdate;
  /** A label for people (1–100 characters), or `''` to remove it. */
  nickname?: string;
}

/** `balances`' parameters. */
export interface BalancesParams {
  /** The moment, inclusive; default now. A minute (`2026-11-24T09:30Z`) means its end. */
  at?: ApiTime;
}

/** `statement`'s period, [from, to): a minute means its start. At most 366 days; a `to` after now is now. */
export interface StatementParams {
  from: ApiTime;
  to: ApiTime;
}

export class AccountsResource {
  readonly #api: FintechAccountsApi;
  /** The generated code files balances and statements with transactions (their tag). */
  readonly #money: FintechTransactionsApi;
  readonly #call: Call;

  constructor(api: FintechAccountsApi, money: FintechTransactionsApi, call: Call) {
    this.#api = api;
    this.#money = money;
    this.#call = call;
  }

  /** One Idempotency-Key, reused by the retries (yours with `{ idempotencyKey }`); `nickname`, `metadata` optional. */
  create(params: CreateAccountRequest, options: RequestOptions = {}): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.createAccountRaw({ createAccountRequest: params, ...options }));
  }

  retrieve(id: string): Promise<WithRequestId<Account>> {
    return this.#call(() => this.#api.retrieveAccountRaw({ id }));
  }

  /** Changes the metadata (see MetadataUpdate), the nickname, or both; allowed on a closed account. */
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

  /**
   * The balances as they stood at `at` (default now): the current balance after the last transaction at or before
   * it, and the available balance, less what pending transfers held then.
   */
  balances(id: string, params: BalancesParams = {}): Promise<WithRequestId<AccountBalances>> {
    const at = params.at === undefined ? undefined : timeQuery(params.at);
    return this.#call(() => this.#money.retrieveAccountBalancesRaw({ id, at }));
  }

  /** Opening and closing balances of [from, to), and its credits and debits: closing = opening + credits − debits. */
  statement(id: string, params: StatementParams): Promise<WithRequestId<AccountStatement>> {
    const period = { from: timeQuery(params.from), to: timeQuery(params.to) };
    return this.#call(() => this.#money.retrieveAccountStatementRaw({ id, ...period }));
  }
}
