/** `plinth.transactions`, `plinth.transfers` and `plinth.sandbox`: money (contract §10). */
import type {
  CreateTransferRequest,
  FintechTransactionsApi,
  FintechTransfersApi,
  SimulateDepositRequest,
  SimulateWithdrawalRequest,
  Transaction,
  TransactionList,
  Transfer,
  TransferList,
} from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import type { RequestOptions } from './options.js';

export class TransactionsResource {
  readonly #api: FintechTransactionsApi;
  readonly #call: Call;

  constructor(api: FintechTransactionsApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** Every transaction of an account, newest first: `for await (const t of plinth.transactions.list(id))`. */
  list(accountId: string, params: ListParams = {}): AsyncGenerator<Transaction, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage(accountId, { ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page of an account's transactions, newest first. */
  listPage(accountId: string, params: PageParams = {}): Promise<WithRequestId<TransactionList>> {
    return this.#call(() => this.#api.listAccountTransactionsRaw({ id: accountId, ...pageQuery(params) }));
  }

  retrieve(id: string): Promise<WithRequestId<Transaction>> {
    return this.#call(() => this.#api.retrieveTransactionRaw({ id }));
  }
}

export interface TransferFilters {
  /** Only transfers from or to this account. */
  account_id?: string;
}

export class TransfersResource {
  readonly #api: FintechTransfersApi;
  readonly #call: Call;

  constructor(api: FintechTransfersApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** Synchronous: the answer is the `posted` transfer. One Idempotency-Key, reused by retries, so money moves once. */
  create(params: CreateTransferRequest, options: RequestOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.createTransferRaw({ createTransferRequest: params, ...options }));
  }

  retrieve(id: string): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.retrieveTransferRaw({ id }));
  }

  /** Every transfer, newest first: `for await (const t of plinth.transfers.list({ account_id }))`. */
  list(params: ListParams & TransferFilters = {}): AsyncGenerator<Transfer, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page, newest first. */
  listPage(params: PageParams & TransferFilters = {}): Promise<WithRequestId<TransferList>> {
    return this.#call(() => this.#api.listTransfersRaw({ ...pageQuery(params), accountId: params.account_id }));
  }
}

/** Simulations that only sandbox keys may run. */
export class SandboxResource {
  readonly #api: FintechTransactionsApi;
  readonly #call: Call;

  constructor(api: FintechTransactionsApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** Money in from nowhere, for testing: the credit transaction. */
  deposit(
    accountId: string,
    params: SimulateDepositRequest,
    options: RequestOptions = {},
  ): Promise<WithRequestId<Transaction>> {
    return this.#call(() =>
      this.#api.simulateDepositRaw({ id: accountId, simulateDepositRequest: params, ...options }),
    );
  }

  /** Money out to nowhere, for testing: the debit transaction (a negative amount). */
  withdraw(
    accountId: string,
    params: SimulateWithdrawalRequest,
    options: RequestOptions = {},
  ): Promise<WithRequestId<Transaction>> {
    return this.#call(() =>
      this.#api.simulateWithdrawalRaw({ id: accountId, simulateWithdrawalRequest: params, ...options }),
    );
  }
}
