import { isAbsolute, resolve } from 'node:path';
import { type Static, Type } from 'typebox';
import { choice, integer, text } from './kit/settings.ts';
import { secretsKeySetting } from './secrets/key-source.ts';

function databaseUrl(raw: string, { cwd }: { cwd: string }): string {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new Error('sqlite: needs a file path, e.g. sqlite:./data/plinth.db');
    if (path === ':memory:') return raw;
    return `sqlite:${isAbsolute(path) ? path : resolve(cwd, path)}`;
  }
  if (/^postgres(ql)?:\/\/./.test(raw)) {
    if (!URL.canParse(raw)) throw new Error('is not a valid postgres:// URL');
    return raw;
  }
  throw new Error(
    `must start with sqlite: or postgres://, got a URL starting ${JSON.stringify(raw.split(':')[0]!.slice(0, 20))}:`,
  );
}

function redisUrl(raw: string): string | null {
  if (raw === '') return null;
  if (!/^rediss?:\/\/./.test(raw)) throw new Error('must start with redis:// or rediss://');
  return raw;
}

/**
 * Fastify's trustProxy: `false`, a hop count, or the proxies' addresses/CIDRs. `true` would believe any
 * X-Forwarded-For, letting every client choose the address its rate limits are counted against.
 */
function trustProxy(raw: string): false | number | string[] {
  if (raw === 'false' || raw === '0') return false;
  if (raw === 'true')
    throw new Error('true would let any client choose its own address; list the proxies, or give a hop count');
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = list.filter((s) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(s));
  if (bad.length > 0)
    throw new Error(`must be proxy addresses or CIDRs, or a hop count; not ${JSON.stringify(bad[0])}`);
  return list;
}

/**
 * The core's settings; each module adds its own (src/modules.ts). The README's table is tested against them all.
 */
export const PlatformSettings = Type.Object({
  HOST: text('127.0.0.1', 'address to listen on; `0.0.0.0` for every interface (behind a load balancer)'),
  PORT: integer(8080, 0, 65535, 'port to listen on (0–65535; 0 picks a free one)'),
  DATABASE_URL: text(
    'sqlite:./data/plinth.db',
    '`sqlite:<path>`, relative to the working directory (the directory is created if missing); or ' +
      '`postgres://user:password@host:5432/db`',
    databaseUrl,
  ),
  DATABASE_POOL_SIZE: integer(10, 1, 1000, 'PostgreSQL connections per process (1–1000)'),
  WEB_CONCURRENCY: integer(
    1,
    1,
    256,
    'worker processes `npm start` runs (node:cluster, sharing the port); above 1 only with PostgreSQL',
  ),
  LOG_LEVEL: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', 'log verbosity'),
  METRICS_TOKEN: text('', 'when set, `GET /metrics` requires `Authorization: Bearer <METRICS_TOKEN>`', (raw) =>
    raw === '' ? null : raw,
  ),
  SHUTDOWN_GRACE_MS: integer(
    10_000,
    0,
    600_000,
    'milliseconds SIGTERM/SIGINT wait for in-flight requests to finish before closing connections',
  ),
  REQUEST_TIMEOUT_SECONDS: integer(
    30,
    1,
    3600,
    'how long a request’s headers and body may take to arrive before 408 `request_timeout`',
  ),
  REDIS_URL: text(
    '',
    '`redis://…` or `rediss://…`: share rate-limit state across processes; unset keeps it in the process',
    redisUrl,
  ),
  REDIS_TIMEOUT_MS: integer(
    100,
    1,
    60_000,
    'how long a rate-limit check waits for Redis before this process limits on its own until Redis answers',
  ),
  RATE_LIMIT_LIVE: integer(100, 1, 1_000_000, 'requests per second per live key, with an equal burst'),
  RATE_LIMIT_SANDBOX: integer(25, 1, 1_000_000, 'requests per second per sandbox key, with an equal burst'),
  RATE_LIMIT_ORG_MULTIPLE: integer(
    4,
    1,
    1000,
    "each org's budget per mode, as a multiple of the per-key rate, shared by all its keys of that mode",
  ),
  AUTH_FAILURE_BURST: integer(20, 1, 1_000_000, 'failed authentications per client address before 429 `rate_limited`'),
  AUTH_FAILURE_PER_SECOND: integer(
    1,
    1,
    1_000_000,
    "rate, per second, at which a client address's failed-authentication budget refills",
  ),
  TRUST_PROXY: text(
    'false',
    'whose `X-Forwarded-For` to believe for the client address: a hop count, or a comma-separated list of the ' +
      "proxies' addresses/CIDRs; `false` believes none, and `true` is refused (any client could choose its address)",
    trustProxy,
  ),
  SECRETS_KEY: text(
    '',
    '32 random bytes, base64 (`openssl rand -base64 32`): encrypts secrets at rest (AES-256-GCM). Required with ' +
      'PostgreSQL; with SQLite, when unset, one is generated into `<database file>.secrets-key` (mode 0600)',
    secretsKeySetting,
  ),
  SECRETS_KEY_PREVIOUS: text(
    '',
    'the key SECRETS_KEY replaces, during a rotation: values it sealed still open until `cli secrets rotate` ' +
      're-seals them',
    secretsKeySetting,
  ),
  IDEMPOTENCY_TTL_HOURS: integer(
    24,
    24,
    24 * 365,
    'hours idempotency keys and their stored responses are kept (at least 24)',
  ),
  IDEMPOTENCY_PURGE_INTERVAL_SECONDS: integer(60, 1, 86_400, 'seconds between purges of expired idempotency keys'),
});

/** The core's part of the Config (a module's settings are its own). */
export type PlatformConfig = Static<typeof PlatformSettings>;
