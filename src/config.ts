import { isAbsolute, resolve } from 'node:path';
import { countryIsReal, currencyOf } from './products/fintech/countries.ts';

/** Everything the process reads from its environment, parsed once at start-up. */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  supportedCountries: ReadonlySet<string>;
  shutdownGraceMs: number;
  /** Shared rate-limit state; in-process when absent. */
  redisUrl: string | null;
  /** Requests per second per key, with an equal burst. */
  rateLimitLive: number;
  rateLimitSandbox: number;
  /** Failed authentications per client address: burst, then refill per second. */
  authFailureBurst: number;
  authFailurePerSecond: number;
  /** Sandbox sign-ups per client address per hour (also the burst). */
  signupPerHour: number;
  sandboxSignup: boolean;
  /** Fastify's trustProxy: false, true, or the proxies' addresses; decides what "client address" means. */
  trustProxy: boolean | string[];
  /** How long an Idempotency-Key and its response are kept (at least 24 h). */
  idempotencyTtlMs: number;
  /** After this, a claim whose request never finished (its process died) may be taken over. */
  idempotencyLockMs: number;
  idempotencyPurgeIntervalMs: number;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  /** Worker processes `npm start` runs (node:cluster); PostgreSQL only. */
  webConcurrency: number;
}

/** CONTRACT §4: US, CA, GB, AU and the euro-area members as of 2026. */
export const DEFAULT_COUNTRIES = 'US,CA,GB,AU,AT,BE,BG,HR,CY,EE,FI,FR,DE,GR,IE,IT,LV,LT,LU,MT,NL,PT,SK,SI,ES';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A bad setting: the message is one line naming the variable and what is wrong with it. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name, String(fallback));
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function databaseUrl(env: Env, cwd: string): string {
  const raw = read(env, 'DATABASE_URL', 'sqlite:./data/plinth.db');
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/plinth.db');
    if (path === ':memory:') return raw;
    return `sqlite:${isAbsolute(path) ? path : resolve(cwd, path)}`;
  }
  if (/^postgres(ql)?:\/\/./.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return raw;
  }
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got a URL starting ${JSON.stringify(raw.split(":")[0]!.slice(0, 20))}:`);
}

function countries(env: Env): Set<string> {
  const raw = read(env, 'SUPPORTED_COUNTRIES', DEFAULT_COUNTRIES);
  const codes = raw.split(',').map((c) => c.trim()).filter((c) => c !== '');
  const bad = codes.filter((c) => !countryIsReal(c));
  if (bad.length > 0) throw new ConfigError('SUPPORTED_COUNTRIES', `not ISO 3166-1 alpha-2 codes: ${bad.join(', ')}`);
  const noCurrency = codes.filter((c) => !bad.includes(c) && currencyOf(c) === null);
  if (noCurrency.length > 0) throw new ConfigError('SUPPORTED_COUNTRIES', `no ISO 4217 currency known for: ${noCurrency.join(', ')}`);
  if (codes.length === 0) throw new ConfigError('SUPPORTED_COUNTRIES', 'must list at least one country');
  return new Set(codes);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name, fallback ? 'on' : 'off').toLowerCase();
  if (['on', 'true', '1'].includes(raw)) return true;
  if (['off', 'false', '0'].includes(raw)) return false;
  throw new ConfigError(name, `must be on or off, got ${JSON.stringify(raw)}`);
}

function redisUrl(env: Env): string | null {
  const raw = read(env, 'REDIS_URL', '');
  if (raw === '') return null;
  if (!/^rediss?:\/\/./.test(raw)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  return raw;
}

function trustProxy(env: Env): boolean | string[] {
  const raw = read(env, 'TRUST_PROXY', 'false');
  if (raw === 'false') return false;
  if (raw === 'true') return true;
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function webConcurrency(env: Env): number {
  const n = integer(env, 'WEB_CONCURRENCY', 1, 1, 256);
  if (n > 1 && read(env, 'DATABASE_URL', 'sqlite:').startsWith('sqlite:')) {
    throw new ConfigError('WEB_CONCURRENCY', 'SQLite mode runs one server process; use a postgres:// DATABASE_URL for more');
  }
  return n;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const logLevel = read(env, 'LOG_LEVEL', 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  return {
    host: read(env, 'HOST', '127.0.0.1'),
    port: integer(env, 'PORT', 8080, 0, 65535),
    databaseUrl: databaseUrl(env, cwd),
    logLevel: logLevel as Config['logLevel'],
    supportedCountries: countries(env),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    redisUrl: redisUrl(env),
    rateLimitLive: integer(env, 'RATE_LIMIT_LIVE', 100, 1, 1_000_000),
    rateLimitSandbox: integer(env, 'RATE_LIMIT_SANDBOX', 25, 1, 1_000_000),
    authFailureBurst: integer(env, 'AUTH_FAILURE_BURST', 20, 1, 1_000_000),
    authFailurePerSecond: integer(env, 'AUTH_FAILURE_PER_SECOND', 1, 1, 1_000_000),
    signupPerHour: integer(env, 'SIGNUP_PER_HOUR', 10, 1, 1_000_000),
    sandboxSignup: flag(env, 'SANDBOX_SIGNUP', true),
    trustProxy: trustProxy(env),
    idempotencyTtlMs: integer(env, 'IDEMPOTENCY_TTL_HOURS', 24, 24, 24 * 365) * 3_600_000,
    idempotencyLockMs: integer(env, 'IDEMPOTENCY_LOCK_SECONDS', 60, 1, 86_400) * 1000,
    idempotencyPurgeIntervalMs: integer(env, 'IDEMPOTENCY_PURGE_INTERVAL_SECONDS', 60, 1, 86_400) * 1000,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    webConcurrency: webConcurrency(env),
  };
}
