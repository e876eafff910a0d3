import { storedTime } from '../../../platform/kit/time.ts';
import type { Side } from './sides.ts';

/**
 * The time of a movement of money over `sides`, read once they are locked: the write's time, or the last entry time of
 * a side when that is later. A write reads the clock before it waits for the sides' locks, so one that waited could
 * otherwise post behind an entry of a later time (and a clock may step back). With this, each account's entries are in
 * time order as they are in ledger order: the balance at a moment is its last entry at or before it, and a statement's
 * closing balance is its opening balance plus what moved in the period (docs/api.md#balances-over-time-and-statements).
 */
export function movementTime(now: Date, sides: Side[]): Date {
  let at = storedTime(now);
  for (const side of sides) if (side.last_entry_at !== null && side.last_entry_at > at) at = side.last_entry_at;
  return new Date(at);
}
