/**
 * `plinth.transfers`: /v1/fintech/transfers, money from one account to another, at once or held first
 * (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations,
 * docs/api.md#holding-money-pending-transfers-and-the-two-balances), and its corrections, the reversals
 * (docs/api.md#correcting-a-transfer).
 */
import type {
  CreateTransferRequest,
  CreateTransferReversalRequest,
  FintechTransfersApi,
  ListTransfersStatusEnum,
  PostTransferRequest,
  Transfer,
  TransferList,
  TransferReversal,
  TransferReversalList,
} from '../../generated/index.js';
import type { Call, WithRequestId } from '../call.js';
import { autoPage, type ListParams, type PageParams, pageQuery } from '../pagination.js';
import { type CreatedFilter, createdQuery, type Metadata, type MetadataUpdate, metadataQuery } from './filters.js';
import type { RequestOptions } from './options.js';

export interface TransferFilters {
  /** Only transfers from or to this account. */
  account_id?: string;
  /** Only transfers in this status: `pending`, `posted`, `voided`, `expired`. */
  status?: ListTransfersStatusEnum;
  /** Only transfers created within these bounds. */
  created?: CreatedFilter;
  /** Only transfers whose metadata has every one of these pairs, exactly. */
  metadata?: Metadata;
}

/** `update`'s parameters: only metadata changes. */
export interface UpdateTransferParams {
  metadata: MetadataUpdate;
}

export class TransfersResource {
  readonly #api: FintechTransfersApi;
  readonly #call: Call;

  constructor(api: FintechTransfersApi, call: Call) {
    this.#api = api;
    this.#call = call;
  }

  /**
   * Moves the money at once (`posted`), or with `pending: true` holds it on the sender until `post`, `void` or
   * `expires_in_seconds` (default 7 days). One Idempotency-Key, reused by the retries, so money moves once.
   */
  create(params: CreateTransferRequest, options: RequestOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.createTransferRaw({ createTransferRequest: params, ...options }));
  }

  retrieve(id: string): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.retrieveTransferRaw({ id }));
  }

  /** Changes the metadata only (see MetadataUpdate), in any status. */
  update(id: string, params: UpdateTransferParams, options: RequestOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.updateTransferRaw({ id, updateTransferRequest: params, ...options }));
  }

  /**
   * Moves a pending transfer's money: all of it, or `amount` of it (the rest returns to the sender's available
   * balance). Not pending: 409 `transfer_not_pending`; past `expires_at`: 409 `transfer_expired`.
   */
  post(id: string, params: PostTransferRequest = {}, options: RequestOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.postTransferRaw({ id, postTransferRequest: params, ...options }));
  }

  /** Releases a pending transfer's hold; nothing moves. The same refusals as `post`. */
  void(id: string, options: RequestOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.#call(() => this.#api.voidTransferRaw({ id, ...options }));
  }

  /** Every transfer, newest first: `for await (const t of plinth.transfers.list({ status: 'pending' }))`. */
  list(params: ListParams & TransferFilters = {}): AsyncGenerator<Transfer, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listPage({ ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page, newest first. */
  listPage(params: PageParams & TransferFilters = {}): Promise<WithRequestId<TransferList>> {
    return this.#call(() =>
      this.#api.listTransfersRaw({
        ...pageQuery(params),
        accountId: params.account_id,
        status: params.status,
        created: createdQuery(params.created),
        metadata: metadataQuery(params.metadata),
      }),
    );
  }

  /**
   * Moves a posted transfer's money back to its sender, linked to it: all that remains (`posted_amount` −
   * `amount_reversed`), or `amount` of it; in several parts if need be. Not posted, or fully reversed: 409
   * `transfer_not_reversible`. One Idempotency-Key, reused by the retries, so the money moves back once.
   */
  reverse(
    id: string,
    params: CreateTransferReversalRequest = {},
    options: RequestOptions = {},
  ): Promise<WithRequestId<TransferReversal>> {
    return this.#call(() =>
      this.#api.createTransferReversalRaw({ id, createTransferReversalRequest: params, ...options }),
    );
  }

  /** Every reversal of a transfer, newest first: `for await (const r of plinth.transfers.listReversals(id))`. */
  listReversals(id: string, params: ListParams = {}): AsyncGenerator<TransferReversal, void, undefined> {
    const { starting_after, ending_before, ...rest } = params;
    return autoPage((cursor) => this.listReversalsPage(id, { ...rest, ...cursor }), { starting_after, ending_before });
  }

  /** One page of a transfer's reversals, newest first. */
  listReversalsPage(id: string, params: PageParams = {}): Promise<WithRequestId<TransferReversalList>> {
    return this.#call(() => this.#api.listTransferReversalsRaw({ id, ...pageQuery(params) }));
  }

  /** One reversal (`trr_…`) of the transfer `id`. */
  retrieveReversal(id: string, reversalId: string): Promise<WithRequestId<TransferReversal>> {
    return this.#call(() => this.#api.retrieveTransferReversalRaw({ id, reversalId }));
  }
}
