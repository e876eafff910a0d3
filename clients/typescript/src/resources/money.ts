/**
 * `plinth.transactions` and `plinth.sandbox`: money
 * (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations); transfers are in transfers.ts.
 */
import type {
  FintechTransactionsApi,
  SimulateDepositRequest,
  SimulateWithdrawalRequest,
  Transaction,
  TransactionList,
  Transfer,
} from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import { type CreatedFilter, createdQuery } from './filters.js';
import type { RequestOptions } from './options.js';

export interface TransactionFilters {
  /** Only transactions created within these bounds. */
  created?: CreatedFilter;
}

export class TransactionsResource {
  readonly #api: FintechTransactionsApi;
  readonly #call: Call;

  constructor(api: FintechTransactionsApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /** Every transaction of an account, newest first: `for await (const t of plinth.transactions.list(id))`. */
  list(accountId: string, params: ListParams & TransactionFilters = {}): AsyncGenerator<Transaction, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage(accountId, { ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page of an account's transactions, newest first. */
  listPage(accountId: string, params: PageParams & TransactionFilters = {}): Promise<WithRequestId<TransactionList>> {
    return this.#call(() =>
      this.#api.listAccountTransactionsRaw({
        id: accountId,
        ...pageQuery(params),
        created: createdQuery(params.created),
      }),
    );
  }

  retrieve(id: string): Promise<WithRequestId<Transaction>> {
    return this.#call(() => this.#api.retrieveTransactionRaw({ id }));
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

  /**
   * Expires a pending transfer now, as the expiry sweep would at its `expires_at`: `expired`, the hold released,
   * nothing moved. For testing what an integration does when a hold lapses, without waiting.
   */
  expireTransfer(id: string, options: RequestOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.simulateTransferExpiryRaw({ id, ...options }));
  }
}
