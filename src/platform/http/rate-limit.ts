import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Rate limiting by GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp per key):
 * `rate` requests per second on average, up to `burst` at once. Each key stores its theoretical arrival
 * time (TAT); a request is allowed when the new TAT is no further ahead of now than the burst allows.
 */
export interface Limit {
  /** Requests per second, on average. */
  rate: number;
  /** Requests allowed at once; also the quota advertised in RateLimit-Policy. */
  burst: number;
}

export interface Decision {
  allowed: boolean;
  /** Requests still allowed right now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** When refused: seconds until one request would be allowed (≥ 1). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes one request from `key`'s bucket; with `peek`, only says whether it would be allowed. */
  take(key: string, limit: Limit, peek?: boolean): Promise<Decision>;
  /**
   * Takes one request from each bucket in order, stopping at the first that refuses (the later ones are left
   * untouched): one round trip for a key and its org. Returns the decisions made, the last one refused or all
   * allowed.
   */
  takeAll(buckets: { key: string; limit: Limit }[]): Promise<Decision[]>;
  /**
   * `takeAll` answered at once, by a limiter whose state is in this process (the in-process one): what every request
   * of an authenticated route asks, without a promise. Absent when the state is elsewhere (Redis).
   */
  takeAllNow?(buckets: { key: string; limit: Limit }[]): Decision[];
  /** Resolves once the limiter can share state (or has given up waiting and runs degraded). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The 429 for a refused decision, telling the client when one request would be allowed again. */
export function rateLimited(decision: Decision, detail: string): ApiError {
  return new ApiError('rate_limited', detail, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
}

/** The GCRA step itself, shared by the in-process limiter and mirrored by the Redis script below. */
export function gcra(tatMs: number, nowMs: number, limit: Limit): { decision: Decision; newTatMs: number } {
  const interval = 1000 / limit.rate;
  const tolerance = interval * limit.burst;
  const newTat = Math.max(tatMs, nowMs) + interval;
  const ahead = newTat - nowMs;
  if (ahead > tolerance) {
    const ahead0 = Math.max(tatMs, nowMs) - nowMs;
    return {
      decision: {
        allowed: false,
        remaining: 0,
        resetSeconds: Math.ceil(ahead0 / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((ahead - tolerance) / 1000)),
      },
      newTatMs: tatMs,
    };
  }
  return {
    decision: {
      allowed: true,
      remaining: Math.floor((tolerance - ahead) / interval),
      resetSeconds: Math.ceil(ahead / 1000),
      retryAfterSeconds: 0,
    },
    newTatMs: newTat,
  };
}

/** State in this process: the default, and the fallback when Redis is unreachable. */
export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const tats = new Map<string, number>();
  let sweeps = 0;
  const take = (key: string, limit: Limit, peek: boolean): Decision => {
    const nowMs = now();
    const { decision, newTatMs } = gcra(tats.get(key) ?? 0, nowMs, limit);
    if (!peek && decision.allowed) tats.set(key, newTatMs);
    // Drop buckets that are full again, so that memory follows active keys, not every key ever seen.
    if (++sweeps % 10_000 === 0) for (const [k, tat] of tats) if (tat < nowMs) tats.delete(k);
    return decision;
  };
  const takeAllNow = (buckets: { key: string; limit: Limit }[]): Decision[] => {
    const decisions: Decision[] = [];
    for (const { key, limit } of buckets) {
      const decision = take(key, limit, false);
      decisions.push(decision);
      if (!decision.allowed) break;
    }
    return decisions;
  };
  return {
    async take(key, limit, peek = false) {
      return take(key, limit, peek);
    },
    async takeAll(buckets) {
      return takeAllNow(buckets);
    },
    takeAllNow,
    async ready() {},
    async close() {},
  };
}

// The same GCRA step, atomic in Redis, on Redis's clock so that every process agrees on "now".
const GCRA_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local peek = ARGV[1] == '1'
local out = {}
for i, key in ipairs(KEYS) do
  local interval = 1000 / tonumber(ARGV[2 * i])
  local tolerance = interval * tonumber(ARGV[2 * i + 1])
  local tat = tonumber(redis.call('GET', key) or '0')
  local base = math.max(tat, now)
  local newTat = base + interval
  local ahead = newTat - now
  if ahead > tolerance then
    for _, v in ipairs({0, 0, math.ceil((base - now) / 1000), math.max(1, math.ceil((ahead - tolerance) / 1000))}) do
      table.insert(out, v)
    end
    return out
  end
  if not peek then
    redis.call('SET', key, tostring(newTat), 'PX', math.ceil(ahead) + 1000)
  end
  for _, v in ipairs({1, math.floor((tolerance - ahead) / interval), math.ceil(ahead / 1000), 0}) do
    table.insert(out, v)
  end
end
return out
`;

/**
 * State shared by every process through Redis: one script call per check. When Redis does not answer within
 * `timeoutMs`, the check falls back to this process's own limiter (limits then hold per process rather than
 * across them) and logs it: rate limiting degrades, the API stays up. Checks return to Redis once it answers.
 * ioredis is imported only here, when Redis is configured: a process without Redis does not carry it in memory
 * (bench/FINDINGS.md, RSS).
 */
export async function redisRateLimiter(url: string, log: FastifyBaseLogger, timeoutMs = 100): Promise<RateLimiter> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  redis.on('error', () => undefined); // reported below, once per outage, not per reconnect attempt
  const fallback = memoryRateLimiter();
  let degraded = false;
  // One script call for all the buckets; on any failure, this process's own limiter answers instead.
  const evaluate = async (
    buckets: { key: string; limit: Limit }[],
    peek: boolean,
    degrade: () => Promise<Decision[]>,
  ): Promise<Decision[]> => {
    try {
      const args = buckets.flatMap((b) => [b.limit.rate, b.limit.burst]);
      const keys = buckets.map((b) => `plinth:rl:${b.key}`);
      const flat = (await redis.eval(GCRA_SCRIPT, keys.length, ...keys, peek ? '1' : '0', ...args)) as number[];
      if (degraded) log.warn('rate limiter: Redis answers again; limits are shared across processes');
      degraded = false;
      const decisions: Decision[] = [];
      for (let i = 0; i < flat.length; i += 4) {
        const [allowed, remaining, reset, retry] = flat.slice(i, i + 4) as [number, number, number, number];
        decisions.push({ allowed: allowed === 1, remaining, resetSeconds: reset, retryAfterSeconds: retry });
      }
      return decisions;
    } catch (error) {
      if (!degraded)
        log.error({ err: error }, 'rate limiter: Redis unreachable; limiting per process until it returns');
      degraded = true;
      return degrade();
    }
  };
  return {
    async take(key, limit, peek = false) {
      return (await evaluate([{ key, limit }], peek, () => fallback.take(key, limit, peek).then((d) => [d])))[0]!;
    },
    takeAll: (buckets) => evaluate(buckets, false, () => fallback.takeAll(buckets)),
    // Start-up waits for the first connection, so that a new process does not begin on its local fallback.
    ready: () =>
      new Promise<void>((resolve) => {
        if (redis.status === 'ready') return resolve();
        const timer = setTimeout(() => {
          log.error('rate limiter: Redis not ready at start-up; limiting per process until it answers');
          resolve();
        }, 2000);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    async close() {
      redis.disconnect();
    },
  };
}
