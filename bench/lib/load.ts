/** The load: autocannon at a fixed concurrency against one server, in this process. */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { type Pressure, watchPressure } from './pressure.ts';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered 2xx over the whole run. */
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Share of the load's time some task on the machine waited for CPU / for I/O (a shared machine's noise). */
  pressure: Pressure;
}

export const CREATE_BODY = JSON.stringify({ type: 'business', country: 'US' });

/** How long a load runs: SECONDS unless told (`amount`: that many requests, then stop). */
export interface Limit {
  seconds?: number;
  amount?: number;
  /** Connections of this load (CONNECTIONS unless told). */
  connections?: number;
}

async function run(options: autocannon.Options, limit: Limit = {}): Promise<Load> {
  const pressure = watchPressure();
  const result = await autocannon({
    connections: limit.connections ?? CONNECTIONS,
    duration: limit.seconds ?? SECONDS,
    ...(limit.amount === undefined ? {} : { amount: limit.amount }),
    ...options,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors, // timeouts included
    pressure: pressure(),
  };
}

/** POST an account create, each request with a fresh Idempotency-Key (as a retrying client sends). */
export function loadCreate(port: number, authorization: string | null, limit: Limit = {}): Promise<Load> {
  return loadCreateAs(port, authorization === null ? [] : [authorization], limit);
}

/** The create load with each request's key taken in turn from `authorizations` (keys of several orgs). */
export function loadCreateAs(port: number, authorizations: string[], limit: Limit = {}): Promise<Load> {
  let next = 0;
  return run(
    {
      url: `http://127.0.0.1:${port}/v1/fintech/accounts`,
      requests: [
        {
          method: 'POST',
          body: CREATE_BODY,
          setupRequest: (request) => ({
            ...request,
            headers: {
              'content-type': 'application/json',
              ...(authorizations.length > 0 ? { authorization: authorizations[next++ % authorizations.length]! } : {}),
              'idempotency-key': randomUUID(),
            },
          }),
        },
      ],
    },
    limit,
  );
}

/**
 * The create load paced at `rate` requests/s over all connections (autocannon's `overallRate`), each with a fresh
 * Idempotency-Key; `answered` hears each 2xx answer's body as it arrives (to time what follows from it).
 */
export function loadCreatePaced(
  port: number,
  authorization: string,
  rate: number,
  answered: (body: string) => void,
  limit: Limit = {},
): Promise<Load> {
  return run(
    {
      url: `http://127.0.0.1:${port}/v1/fintech/accounts`,
      overallRate: rate,
      requests: [
        {
          method: 'POST',
          body: CREATE_BODY,
          setupRequest: (request) => ({
            ...request,
            headers: { 'content-type': 'application/json', authorization, 'idempotency-key': randomUUID() },
          }),
          onResponse: (status, body) => {
            if (status >= 200 && status < 300) answered(body);
          },
        },
      ],
    },
    limit,
  );
}

/** POST a transfer of 1 minor unit from one account to another, each with a fresh Idempotency-Key. */
export function loadTransfer(port: number, authorization: string, from: string, to: string): Promise<Load> {
  const body = JSON.stringify({ from_account_id: from, to_account_id: to, amount: 1, currency: 'USD' });
  return run({
    url: `http://127.0.0.1:${port}/v1/fintech/transfers`,
    requests: [
      {
        method: 'POST',
        body,
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'application/json', authorization, 'idempotency-key': randomUUID() },
        }),
      },
    ],
  });
}

/**
 * POST transfers of 1 minor unit around a ring of funded accounts (each request the next pair: 0→1, 1→2, …, n−1→0),
 * each with a fresh Idempotency-Key: one org's transfers that do not all queue for the same two rows. `extra` joins
 * each body (`{ pending: true }`: transfers that hold the amount, docs/api.md#holding-money-pending-transfers-and-the-two-balances).
 */
export function loadTransferRing(
  port: number,
  authorization: string,
  accounts: string[],
  extra: object = {},
  limit: Limit = {},
): Promise<Load> {
  const bodies = accounts.map((from, i) =>
    JSON.stringify({
      from_account_id: from,
      to_account_id: accounts[(i + 1) % accounts.length],
      amount: 1,
      currency: 'USD',
      ...extra,
    }),
  );
  let next = 0;
  return run(
    {
      url: `http://127.0.0.1:${port}/v1/fintech/transfers`,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => ({
            ...request,
            body: bodies[next++ % bodies.length]!,
            headers: { 'content-type': 'application/json', authorization, 'idempotency-key': randomUUID() },
          }),
        },
      ],
    },
    limit,
  );
}

/**
 * POST /v1/fintech/transfers/{id}/post (all of it, no body), each request the id `nextId` answers (a pending transfer
 * made before the load, each once), each with a fresh Idempotency-Key. When it has none left, the request posts a
 * transfer that does not exist: a 404, counted as non-2xx, rather than a figure measured on fewer posts than requests.
 */
export function loadPosts(
  port: number,
  authorization: string,
  nextId: () => string | undefined,
  limit: Limit = {},
): Promise<Load> {
  return run(
    {
      url: `http://127.0.0.1:${port}/v1/fintech/transfers`,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => ({
            ...request,
            path: `/v1/fintech/transfers/${nextId() ?? 'tr_00000000000000000000000000'}/post`,
            headers: { authorization, 'idempotency-key': randomUUID() },
          }),
        },
      ],
    },
    limit,
  );
}

/**
 * POST /v1/fintech/transfers/{id}/reversals of 1 minor unit, every request of the one transfer (posted, large enough
 * for them all), each with a fresh Idempotency-Key (docs/api.md#correcting-a-transfer). For the profile: the transfer
 * row stays warm, which the instruction count (a distinct transfer each) does not allow.
 */
export function loadReversals(port: number, authorization: string, transferId: string): Promise<Load> {
  return run({
    url: `http://127.0.0.1:${port}/v1/fintech/transfers/${transferId}/reversals`,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => ({
          ...request,
          body: '{"amount":1}',
          headers: { 'content-type': 'application/json', authorization, 'idempotency-key': randomUUID() },
        }),
      },
    ],
  });
}

/** GET one path, the same every time. */
export function loadGet(port: number, path: string, authorization: string | null, limit?: Limit): Promise<Load> {
  return run(
    {
      url: `http://127.0.0.1:${port}${path}`,
      method: 'GET',
      headers: authorization ? { authorization } : {},
    },
    limit,
  );
}
