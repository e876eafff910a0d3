/** WEBHOOK_RETRY_SCHEDULE: comma-separated delays such as `5s,5m,30m,2h`; each the wait before one more attempt. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseSchedule(raw: string): number[] {
  const delays = raw.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`must be delays like 5s,5m,2h (units ms, s, m, h, d); not ${JSON.stringify(part)}`);
    return Number(match[1]) * UNIT_MS[match[2]!]!;
  });
  if (delays.length > 50) throw new Error('at most 50 retries');
  return delays;
}

/** Retry-After is honoured up to an hour: a receiver may slow us down, not park a delivery for days. */
export const RETRY_AFTER_MAX_MS = 3_600_000;

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (header === undefined) return null;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS) : null;
}

/**
 * The wait before the next attempt after `made` scheduled attempts failed, or null when the schedule is spent.
 * ±20% jitter spreads the retries of many deliveries that failed together (an endpoint's outage) over time.
 */
export function nextDelay(schedule: number[], made: number, retryAfter: number | null, random = Math.random) {
  if (made > schedule.length) return null;
  if (retryAfter !== null) return retryAfter;
  return Math.round(schedule[made - 1]! * (0.8 + 0.4 * random()));
}
