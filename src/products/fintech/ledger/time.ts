import { storedTime } from '../../../platform/kit/time.ts';
import type { Side } from './sides.ts';

/**
 * The time of a movement of money over `sides`, read once they are locked: the write's time, or a later one a side
 * demands, whichever is latest:
 *
 * - its last entry's time. A write reads the clock before it waits for the sides' locks, so one that waited could
 *   otherwise post behind an entry of a later time (and a clock may step back). With this, each account's entries are
 *   in time order as they are in ledger order: the balance at a moment is its last entry at or before it, and a
 *   statement's closing balance is its opening balance plus what moved in the period.
 * - its seal (`sealed_before`): a balance or a statement of the account was answered about every moment before it
 *   (balances.service.ts), and an answer about the past never changes (docs/api.md#balances-over-time-and-statements).
 */
export function movementTime(now: Date, sides: Side[]): Date {
  let at = storedTime(now);
  for (const side of sides) at = earliestNext(side, at);
  return new Date(at);
}

/** `at`, or the earliest time the side's next movement may take when that is later (stored times sort as text). */
export function earliestNext(side: Pick<Side, 'last_entry_at' | 'sealed_before'>, at: string): string {
  let earliest = at;
  if (side.last_entry_at !== null && side.last_entry_at > earliest) earliest = side.last_entry_at;
  if (side.sealed_before !== null && side.sealed_before > earliest) earliest = side.sealed_before;
  return earliest;
}
