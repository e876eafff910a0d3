/** A clock, passed in so that tests can pin time; production uses Date. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** Stored form: ISO 8601 UTC with milliseconds; sorts as text. */
export function storedTime(date: Date): string {
  return date.toISOString();
}

/** The stored time `keepMs` ago: what a retention purge deletes is older than this. */
export function cutoffBefore(clock: Clock, keepMs: number): string {
  return storedTime(new Date(clock().getTime() - keepMs));
}

/**
 * Every timestamp in every response (docs/api.md#ids-timestamps-money-and-open-enums): UTC, exactly
 * `YYYY-MM-DDTHH:MMZ`.
 */
export function apiTime(stored: string): string {
  // What storedTime wrote is already UTC to the millisecond: the minute is its first 16 characters (every response
  // formats several times, so no Date is built for them). Anything else is parsed.
  if (STORED_FORMAT.test(stored)) return `${stored.slice(0, 16)}Z`;
  return `${new Date(stored).toISOString().slice(0, 16)}Z`;
}

const STORED_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const API_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}Z$';
