/**
 * PlinthClient: the generated API classes (../generated, OpenAPI Generator typescript-fetch) behind one object
 * per resource (./operations, generated from the API description too; `plinth.transfers`, …), with retries, idempotency keys and timeouts (transport.ts), list iteration
 * (pagination.ts), one typed error (errors.ts) and the `Request-Id` of every successful response (call.ts).
 */
import {
  APIKeysApi,
  type ApiResponse,
  Configuration,
  type SandboxSignup as GeneratedSandboxSignup,
  ResponseError,
} from '../generated/index.js';
import { requireSecret, settle, type WithRequestId } from './call.js';
import { createResources, type Resources } from './operations/index.js';
import type { NewApiKey } from './resources/params.js';
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

/** A sign-up's answer: the organisation and its first key, whose `key` is a plain string (a sign-up never replays). */
export type SandboxSignup = Omit<GeneratedSandboxSignup, 'api_key'> & { api_key: NewApiKey };

export interface RawRequest {
  method: 'GET' | 'POST' | 'DELETE';
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

/** The resources (`plinth.accounts`, `plinth.transfers`, …), as the generated layer declares them. */
export interface PlinthClient extends Resources {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface above
export class PlinthClient {
  /** The `Request-Id` of the last successful response this client received. */
  lastRequestId: string | undefined;
  /** How many retries this client has made so far. */
  retries = 0;

  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #apiKey: string;

  constructor(options: PlinthClientOptions) {
    this.#apiKey = options.apiKey;
    this.#baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#fetch = resilientFetch(transportOptions(options, () => this.retries++));
    const configuration = new Configuration({
      basePath: this.#baseUrl,
      accessToken: options.apiKey,
      fetchApi: this.#fetch,
    });
    const call = <T>(run: () => Promise<ApiResponse<T>>) => settle(run, (id) => (this.lastRequestId = id));
    const plainFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const stream = { baseUrl: this.#baseUrl, apiKey: options.apiKey, fetch: plainFetch };
    // One property per resource (operations/index.ts, generated): typed by the interface of the same name above.
    Object.assign(this, createResources({ configuration, call, stream }));
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
    const signup = await settle(
      () => new APIKeysApi(configuration).sandboxSignupRaw({ sandboxSignupRequest: params }),
      () => undefined,
    );
    requireSecret(signup.api_key, 'key', signup.requestId);
    return signup as WithRequestId<SandboxSignup>;
  }

  /**
   * Any call, with the same retries, idempotency key, timeout and errors as the typed methods, returning the
   * parsed JSON as it came: for fields, parameters or operations newer than this version of the client.
   */
  async request<T = unknown>(raw: RawRequest): Promise<WithRequestId<T>> {
    const query = new URLSearchParams(Object.entries(raw.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };
    if (raw.body !== undefined) headers['content-type'] = 'application/json';
    if (raw.idempotencyKey !== undefined) headers['idempotency-key'] = raw.idempotencyKey;
    const url = `${this.#baseUrl}${raw.path}${query ? `?${query}` : ''}`;
    return settle(
      async () => {
        const response = await this.#fetch(url, {
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
