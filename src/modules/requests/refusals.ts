import type { RequestLogsTable } from './tables.ts';

/** A request its key's or organisation's rate limit refused: counted in a summary, not recorded on its own. */
export const isRefusal = (status: number, code: string | null | undefined): boolean =>
  status === 429 && code === 'rate_limited';

export interface RefusalCounter {
  /**
   * Counts one refused request of `key` (a key id and source): the first of a second makes the second's summary
   * with `make` (that request's entry), the others only add one to its `count`. Never waits and never throws.
   */
  count(key: string, make: () => RequestLogsTable): void;
  /** Hands every summary over to the recorder, the current second's too (flush, shutdown). */
  release(): void;
  /** Releases every summary and stops the timer. */
  stop(): void;
}

/**
 * Refused requests cost the log one entry per key (and source) and second, whatever a client sends (docs/api.md,
 * "The request log"): a flood of 429s would otherwise write a row each, past anything the rate limit admits. A
 * summary is handed to `record` once its second is over: when the key's next refusal comes in a later second, or
 * at the latest a second later, by the timer. A refusal costs a map lookup; only the first of a second builds an
 * entry. Memory: one summary per key refused in the last second or two.
 */
export function refusalCounter(record: (entry: RequestLogsTable) => void): RefusalCounter {
  const open = new Map<string, { second: number; entry: RequestLogsTable }>();
  const releaseBefore = (second: number) => {
    for (const [key, summary] of open) {
      if (summary.second >= second) continue;
      open.delete(key);
      record(summary.entry);
    }
  };
  const timer = setInterval(() => releaseBefore(Math.floor(Date.now() / 1000)), 1000);
  timer.unref();
  return {
    count(key, make) {
      const second = Math.floor(Date.now() / 1000);
      const summary = open.get(key);
      if (summary?.second === second) {
        summary.entry.count = (summary.entry.count ?? 0) + 1;
        return;
      }
      if (summary !== undefined) record(summary.entry);
      open.set(key, { second, entry: { ...make(), count: 1 } });
    },
    release: () => releaseBefore(Number.POSITIVE_INFINITY),
    stop() {
      clearInterval(timer);
      releaseBefore(Number.POSITIVE_INFINITY);
    },
  };
}
