import type { Int64 } from '../tables.ts';

/**
 * 2^53 − 1: the largest amount (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations), and the bound
 * of every balance (see the README's Decisions).
 */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/**
 * A 64-bit column as an exact JavaScript number. pg returns bigint as a decimal string; node:sqlite returns a
 * number and itself throws ERR_OUT_OF_RANGE past 2^53 − 1, so neither can lose precision silently. Balances are
 * bounded by a CHECK constraint to ±(2^53 − 1), so this never throws on rows the ledger wrote.
 */
export function toAmount(value: Int64): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an exact integer amount: ${String(value)}`);
  return n;
}

/** True when `balance + delta` stays inside the bounds every balance keeps. */
export function withinBounds(balance: number, delta: number): boolean {
  const after = balance + delta;
  return after >= -MAX_AMOUNT && after <= MAX_AMOUNT;
}
