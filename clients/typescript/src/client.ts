/**
 * PlinthClient: the generated API classes (../generated, OpenAPI Generator typescript-fetch) behind one object
 * per resource, with retries, idempotency keys and timeouts (transport.ts), list iteration (pagination.ts), one
 * typed error (errors.ts) and the `Request-Id` of every successful response.
 */
import {
  type Account,
  type AccountList,
  APIKeysApi,
  type ApiKey,
  type ApiKeyList,
  type ApiResponse,
  Configuration,
  type CreateAccountRequest,
  type CreateApiKeyRequest,
  type CreateTransferRequest,
  FetchError,
  FintechAccountsApi,
  FintechTransactionsApi,
  FintechTransfersApi,
  type NewApiKey,
  ResponseError,
  type SandboxSignup,
  type SimulateDepositRequest,
  type Transaction,
  type TransactionList,
  type Transfer,
} from '../generated/index.js';
import { PlinthError } from './errors.js';
import { autoPage } from './pagination.js';
import { type RetryInfo, resilientFetch, type TransportOptions } from './transport.js';

export interface PlinthClientOptions {
  /** `sk_test_…` (sandbox) or `sk_live_…`. */
  apiKey: string;
  /** e.g. `https://plinth.example.com`; default `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Per attempt; default 30 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 3. */
  maxRetries?: number;
  fetch?: typeof fetch;
  onRetry?: (retry: RetryInfo) => void;
}

/** What a call returns: the decoded object, plus the `Request-Id` of the response that carried it. */
export type WithRequestId<T> = T & { readonly requestId: string };

export interface CreateOptions {
  /** Your own key (1–255 visible ASCII characters); by default each call gets a new UUID, reused by its retries. */
  idempotencyKey?: string;
}

export interface ListParams {
  /** Page size, 1–100. */
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

export interface RawRequest {
  method: 'GET' | 'POST';
  /** e.g. `/v1/fintech/accounts`. */
  path: string;
  query?: Record<string, string | number>;
  /** Sent as JSON exactly as given: the way to send a field this version of the client does not know. */
  body?: unknown;
  idempotencyKey?: string;
}

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

function transportOptions(
  options: Omit<PlinthClientOptions, 'apiKey'>,
  onRetry: (retry: RetryInfo) => void,
): TransportOptions {
  return {
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 3,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    onRetry: (retry) => {
      onRetry(retry);
      options.onRetry?.(retry);
    },
  };
}

/** Runs one generated call: refusals and transport failures become PlinthError; success keeps its Request-Id. */
async function settle<T>(
  call: () => Promise<ApiResponse<T>>,
  seen: (requestId: string) => void,
): Promise<WithRequestId<T>> {
  let response: ApiResponse<T>;
  try {
    response = await call();
  } catch (error) {
    if (error instanceof ResponseError) throw await PlinthError.fromResponse(error.response);
    if (error instanceof FetchError && error.cause instanceof PlinthError) throw error.cause;
    if (error instanceof PlinthError) throw error;
    throw new PlinthError({ status: 0, code: 'connection_failed', detail: String(error), cause: error });
  }
  const requestId = response.raw.headers.get('request-id') ?? '';
  seen(requestId);
  const value = await response.value();
  // Not enumerable: the object still compares and serialises as exactly what the server sent.
  Object.defineProperty(value, 'requestId', { value: requestId, enumerable: false });
  return value as WithRequestId<T>;
}

export class PlinthClient {
  /** The `Request-Id` of the last successful response this client received. */
  lastRequestId: string | undefined;
  /** How many retries this client has made so far. */
  retries = 0;

  readonly accounts: AccountsResource;
  readonly apiKeys: ApiKeysResource;
  readonly transfers: TransfersResource;
  /** Simulations that only sandbox keys may run. */
  readonly sandbox: SandboxResource;

  private readonly baseUrl: string;
  private readonly fetchWithRetries: typeof fetch;
  private readonly apiKey: string;

  constructor(options: PlinthClientOptions) {
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.fetchWithRetries = resilientFetch(transportOptions(options, () => this.retries++));
    const configuration = new Configuration({
      basePath: this.baseUrl,
      accessToken: options.apiKey,
      fetchApi: this.fetchWithRetries,
    });
    const call = <T>(run: () => Promise<ApiResponse<T>>) => settle(run, (id) => (this.lastRequestId = id));
    const transactions = new FintechTransactionsApi(configuration);
    this.accounts = new AccountsResource(new FintechAccountsApi(configuration), transactions, call);
    this.apiKeys = new ApiKeysResource(new APIKeysApi(configuration), call);
    this.transfers = new TransfersResource(new FintechTransfersApi(configuration), call);
    this.sandbox = new SandboxResource(transactions, call);
  }

  /**
   * Creates a sandbox organisation and its first key; no key needed. `PlinthClient.signUp(url).then((s) =>
   * new PlinthClient({ baseUrl: url, apiKey: s.api_key.key }))` is the quickest start.
   */
  static async signUp(
    baseUrl: string = DEFAULT_BASE_URL,
    params: { name?: string } = {},
    options: Omit<PlinthClientOptions, 'apiKey' | 'baseUrl'> = {},
  ): Promise<WithRequestId<SandboxSignup>> {
    const configuration = new Configuration({
      basePath: baseUrl.replace(/\/+$/, ''),
      fetchApi: resilientFetch(transportOptions(options, () => undefined)),
    });
    return settle(
      () => new APIKeysApi(configuration).sandboxSignupRaw({ sandboxSignupRequest: params }),
      () => undefined,
    );
  }

  /**
   * Any call, with the same retries, idempotency key, timeout and errors as the typed methods, returning the
   * parsed JSON as it came: for fields, parameters or operations newer than this version of the client.
   */
  async request<T = unknown>(raw: RawRequest): Promise<WithRequestId<T>> {
    const query = new URLSearchParams(Object.entries(raw.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' };
    if (raw.body !== undefined) headers['content-type'] = 'application/json';
    if (raw.idempotencyKey !== undefined) headers['idempotency-key'] = raw.idempotencyKey;
    const url = `${this.baseUrl}${raw.path}${query ? `?${query}` : ''}`;
    return settle(
      async () => {
        const response = await this.fetchWithRetries(url, {
          method: raw.method,
          headers,
          body: raw.body === undefined ? undefined : JSON.stringify(raw.body),
        });
        if (!response.ok) throw new ResponseError(response);
        return { raw: response, value: () => response.json() as Promise<T> };
      },
      (id) => (this.lastRequestId = id),
    );
  }
}

type Call = <T>(run: () => Promise<ApiResponse<T>>) => Promise<WithRequestId<T>>;

export class AccountsResource {
  constructor(
    private readonly api: FintechAccountsApi,
    private readonly transactionsApi: FintechTransactionsApi,
    private readonly call: Call,
  ) {}

  create(params: CreateAccountRequest, options: CreateOptions = {}): Promise<WithRequestId<Account>> {
    return this.call(() =>
      this.api.createAccountRaw({ createAccountRequest: params, idempotencyKey: options.idempotencyKey }),
    );
  }

  retrieve(id: string): Promise<WithRequestId<Account>> {
    return this.call(() => this.api.retrieveAccountRaw({ id }));
  }

  /** One page, newest first. */
  list(params: ListParams = {}): Promise<WithRequestId<AccountList>> {
    return this.call(() =>
      this.api.listAccountsRaw({
        limit: params.limit,
        startingAfter: params.starting_after,
        endingBefore: params.ending_before,
      }),
    );
  }

  /** Every account, newest first, fetching pages of `limit` as the loop consumes them: `for await (const a of …)`. */
  listAll(params: Omit<ListParams, 'ending_before'> = {}): AsyncGenerator<Account, void, undefined> {
    return autoPage((cursor) => this.list({ limit: params.limit, starting_after: cursor }), params.starting_after);
  }

  /** One page of an account's transactions, newest first. */
  listTransactions(id: string, params: ListParams = {}): Promise<WithRequestId<TransactionList>> {
    return this.call(() =>
      this.transactionsApi.listAccountTransactionsRaw({
        id,
        limit: params.limit,
        startingAfter: params.starting_after,
        endingBefore: params.ending_before,
      }),
    );
  }

  /** Every transaction of an account, newest first, page by page: `for await (const t of ….transactions(id))`. */
  transactions(
    id: string,
    params: Omit<ListParams, 'ending_before'> = {},
  ): AsyncGenerator<Transaction, void, undefined> {
    return autoPage(
      (cursor) => this.listTransactions(id, { limit: params.limit, starting_after: cursor }),
      params.starting_after,
    );
  }
}

export class TransfersResource {
  constructor(
    private readonly api: FintechTransfersApi,
    private readonly call: Call,
  ) {}

  /** Synchronous: the answer is the `posted` transfer. One Idempotency-Key, reused by retries, so money moves once. */
  create(params: CreateTransferRequest, options: CreateOptions = {}): Promise<WithRequestId<Transfer>> {
    return this.call(() =>
      this.api.createTransferRaw({ createTransferRequest: params, idempotencyKey: options.idempotencyKey }),
    );
  }

  retrieve(id: string): Promise<WithRequestId<Transfer>> {
    return this.call(() => this.api.retrieveTransferRaw({ id }));
  }
}

export class SandboxResource {
  constructor(
    private readonly api: FintechTransactionsApi,
    private readonly call: Call,
  ) {}

  /** Money in from nowhere, for testing: the credit transaction. */
  deposit(
    accountId: string,
    params: SimulateDepositRequest,
    options: CreateOptions = {},
  ): Promise<WithRequestId<Transaction>> {
    return this.call(() =>
      this.api.simulateDepositRaw({
        id: accountId,
        simulateDepositRequest: params,
        idempotencyKey: options.idempotencyKey,
      }),
    );
  }
}

export class ApiKeysResource {
  constructor(
    private readonly api: APIKeysApi,
    private readonly call: Call,
  ) {}

  create(params: CreateApiKeyRequest = {}, options: CreateOptions = {}): Promise<WithRequestId<NewApiKey>> {
    return this.call(() =>
      this.api.createApiKeyRaw({ createApiKeyRequest: params, idempotencyKey: options.idempotencyKey }),
    );
  }

  revoke(id: string, options: CreateOptions = {}): Promise<WithRequestId<ApiKey>> {
    return this.call(() => this.api.revokeApiKeyRaw({ id, idempotencyKey: options.idempotencyKey }));
  }

  list(params: ListParams = {}): Promise<WithRequestId<ApiKeyList>> {
    return this.call(() =>
      this.api.listApiKeysRaw({
        limit: params.limit,
        startingAfter: params.starting_after,
        endingBefore: params.ending_before,
      }),
    );
  }

  listAll(params: Omit<ListParams, 'ending_before'> = {}): AsyncGenerator<ApiKey, void, undefined> {
    return autoPage((cursor) => this.list({ limit: params.limit, starting_after: cursor }), params.starting_after);
  }
}
