import { ApiError } from '../../platform/http/errors.ts';
import { cleanText, cleanTextRule } from '../../platform/kit/text.ts';
import { toAmount, withinBounds } from './ledger/amount.ts';
import type { Side } from './ledger/sides.ts';
import { DESCRIPTION_MAX } from './transfers.schema.ts';

/**
 * The checks every movement of money makes on a customer account, under its lock (docs/api.md#account-lifecycle,
 * docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations).
 */

/** Description as stored: trimmed, or null when none was given. */
export function cleanDescription(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const text = cleanText(raw, DESCRIPTION_MAX);
  if (text === null)
    throw new ApiError('parameter_invalid', cleanTextRule('description', DESCRIPTION_MAX), { param: 'description' });
  return text;
}

/** A closed or frozen side moves no money; `param` names the side. */
export function checkOpen(row: Side, param: string): void {
  if (row.status === 'closed')
    throw new ApiError('account_closed', `${param} ${row.id} is closed; it can no longer move money.`, { param });
  if (row.status === 'frozen')
    throw new ApiError('account_frozen', `${param} ${row.id} is frozen; it takes no debit and no credit.`, { param });
}

export function checkCurrency(row: Side, param: string, currency: string): void {
  if (row.currency !== currency)
    throw new ApiError(
      'currency_mismatch',
      `${param} ${row.id} holds ${row.currency}; this movement is in ${currency}.`,
      { param },
    );
}

/**
 * What a customer account can spend: its balance less what its pending transfers hold
 * (docs/api.md#holding-money-pending-transfers-and-the-two-balances).
 */
export const availableOf = (row: Pick<Side, 'balance' | 'held'>): number => toAmount(row.balance) - toAmount(row.held);

export function checkFunds(row: Side, param: string, amount: number): void {
  const available = availableOf(row);
  if (available < amount)
    throw new ApiError(
      'insufficient_funds',
      `${param} ${row.id} has ${available} ${row.currency} (minor units) available; ${amount} were asked for.`,
      { param, ownNumbers: true },
    );
}

/** Every balance stays within ±(2^53 − 1), so that it is exact as a JSON number (see the README's Decisions). */
export function checkCredit(row: Side, amount: number, currency: string): void {
  if (!withinBounds(toAmount(row.balance), amount))
    throw new ApiError(
      'parameter_invalid',
      `amount would take a balance past 9007199254740991 ${currency} (minor units), the most an account holds.`,
      { param: 'amount' },
    );
}
