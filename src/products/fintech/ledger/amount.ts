import type { Int64 } from '../tables.ts';

/**
 * An amount of money in integer minor units (cents for USD), signed. A branded number: a request's amount is one from
 * the moment its schema validates it (the TypeBox schemas declare `Amount` as `Minor`), a stored one becomes one
 * through `toAmount`, and the ledger takes nothing else, so a count, an id's time or a plain `number` from anywhere
 * cannot be posted by mistake. Arithmetic on two of them is a plain number again: `plus`, `minus` and `negated` keep
 * the brand and check that the result is exact.
 */
export type Minor = number & { readonly __minorUnits: unique symbol };

/**
 * 2^53 − 1: the largest amount (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations), and the bound
 * of every balance (see the README's Decisions).
 */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/**
 * A 64-bit column as an exact amount. pg returns bigint as a decimal string; node:sqlite returns a number and itself
 * throws ERR_OUT_OF_RANGE past 2^53 − 1, so neither can lose precision silently. Balances are bounded by a CHECK
 * constraint to ±(2^53 − 1), so this never throws on rows the ledger wrote.
 */
export function toAmount(value: Int64 | number): Minor {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an exact integer amount: ${String(value)}`);
  return n as Minor;
}

export const ZERO = 0 as Minor;
export const plus = (a: Minor, b: Minor): Minor => toAmount(a + b);
export const minus = (a: Minor, b: Minor): Minor => toAmount(a - b);
export const negated = (a: Minor): Minor => -a as Minor;

/** True when `balance + delta` stays inside the bounds every balance keeps. */
export function withinBounds(balance: Minor, delta: Minor): boolean {
  const after = balance + delta;
  return after >= -MAX_AMOUNT && after <= MAX_AMOUNT;
}
