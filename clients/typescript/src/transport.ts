/**
 * The fetch every generated API call goes through: it adds what clients/README.md#what-every-client-does asks of a
 * client around one logical call, without the generated code knowing.
 *   - One `Idempotency-Key` (UUID v4) per authenticated POST, made before the first attempt and sent on every
 *     retry, so a retried create can never create twice. A caller's own key wins. The unauthenticated sign-up
 *     refuses the header, hence "authenticated".
 *   - Retries of connection failures, timeouts, 409 `idempotency_request_in_progress`, 429 and 5xx: exponential
 *     backoff with full jitter, or the server's `Retry-After` when it gives one, at most `maxRetries` times.
 *   - A timeout per attempt.
 * It returns the last response, successful or not; turning a refusal into a PlinthError is the client's job.
 */
import { PlinthError } from './errors.js';

export interface TransportOptions {
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The fetch to use: the global one by default (Node ≥ 18, browsers, Deno, Bun). */
  fetch: typeof fetch;
  /** Called before each retry; what `npm run test:clients` counts, and a place to log. */
  onRetry?: (retry: RetryInfo) => void;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  method: string;
  url: string;
  /** The status that caused it, or 0 for a connection failure or timeout. */
  status: number;
  delayMs: number;
}

/** Longest Retry-After honoured: a server asking for more is treated as down, and the error is returned. */
const MAX_RETRY_AFTER_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

export function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  // Node 18 has no global `crypto` without a flag; uniqueness, not secrecy, is what an idempotency key needs.
  const bytes = new Uint8Array(16);
  if (webCrypto?.getRandomValues) webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function headerMap(init: RequestInit): Headers {
  return new Headers(init.headers);
}

async function shouldRetry(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  // Only the "still running" 409: other conflicts (a frozen account, a key limit) will not change by waiting.
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return body.code === 'idempotency_request_in_progress';
  } catch {
    return false;
  }
}

function delayFor(attempt: number, response: Response | undefined): number | undefined {
  const retryAfter = response?.headers.get('retry-after');
  if (retryAfter && /^\d+$/.test(retryAfter.trim())) {
    const ms = Number(retryAfter.trim()) * 1000;
    return ms > MAX_RETRY_AFTER_MS ? undefined : ms;
  }
  return Math.random() * Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** One attempt, aborted after `timeoutMs`; a caller's own signal still aborts it too. */
async function attempt(options: TransportOptions, url: string, init: RequestInit): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const outer = init.signal;
  const forward = () => controller.abort();
  outer?.addEventListener('abort', forward);
  try {
    return await options.fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (outer?.aborted) throw error;
    if (controller.signal.aborted)
      throw new PlinthError({
        status: 0,
        code: 'timeout',
        detail: `no response within ${options.timeoutMs} ms`,
        cause: error,
      });
    throw new PlinthError({
      status: 0,
      code: 'connection_failed',
      detail: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}

export function resilientFetch(options: TransportOptions): typeof fetch {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headerMap(init);
    if (method === 'POST' && headers.has('authorization') && !headers.has('idempotency-key')) {
      headers.set('idempotency-key', newIdempotencyKey());
    }
    const request: RequestInit = { ...init, headers };
    for (let retry = 0; ; retry++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await attempt(options, url, request);
        if (!(await shouldRetry(response))) return response;
      } catch (error) {
        if (!(error instanceof PlinthError)) throw error;
        failure = error;
      }
      const delayMs = retry < options.maxRetries ? delayFor(retry + 1, response) : undefined;
      if (delayMs === undefined) {
        if (response) return response;
        throw failure;
      }
      options.onRetry?.({ attempt: retry + 1, method, url, status: response?.status ?? 0, delayMs });
      // The body of a response we will not use; reading it lets the connection be reused.
      await response?.body?.cancel().catch(() => undefined);
      await sleep(delayMs);
    }
  };
}
