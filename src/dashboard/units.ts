import { ApiError } from '../platform/http/errors.ts';
import { majorUnits } from './format.ts';

/**
 * The API speaks of amounts in integer minor units (docs/api.md#the-wire); the dashboard's forms take and show the
 * major unit (`999.99 USD`). A refusal shown beside a form is said in the form's unit: numbers the API marks as
 * `N USD (minor units)` always, and where the form typed an amount in a currency (`amountField`), the amount rules
 * of that form's operation (`amount must be 1 to 35000`, `at least`, `at most`, `N were asked for`).
 */

/** The currency each submitted form typed its amounts in (set by `amountField`). */
const units = new WeakMap<URLSearchParams, string>();

export const typedIn = (fields: URLSearchParams, currency: string): void => void units.set(fields, currency);

/** `text` with its minor-unit amounts in the major unit; `currency` the form's, when it typed an amount. */
export function inMajorUnits(text: string, currency: string | undefined): string {
  let out = text.replace(/(-?\d+) ([A-Z]{3}) \(minor units\)/g, (_, n: string, code: string) =>
    majorUnits(BigInt(n), code),
  );
  if (currency === undefined) return out;
  const major = (n: string) => majorUnits(BigInt(n), currency);
  out = out
    .replace(
      /\bamount must be (\d+) to (\d+)\b/g,
      (_, lo: string, hi: string) => `amount must be ${major(lo)} to ${major(hi)}`,
    )
    .replace(
      /\bamount must be at (least|most) (\d+)\b/g,
      (_, which: string, n: string) => `amount must be at ${which} ${major(n)}`,
    )
    .replace(/; (\d+) were asked for\b/g, (_, n: string) => `; ${major(n)} were asked for`);
  return out;
}

/** The refusal of a form, its detail and each error's, said in the form's unit (the same code, param and status). */
export function inFormUnit(error: ApiError, fields: URLSearchParams): ApiError {
  const currency = units.get(fields);
  const message = inMajorUnits(error.message, currency);
  const errors = error.errors?.map((e) => ({ ...e, detail: inMajorUnits(e.detail, currency) }));
  if (message === error.message && errors?.every((e, i) => e.detail === error.errors?.[i]?.detail) !== false)
    return error;
  return new ApiError(error.code, message, {
    ...(error.param === undefined ? {} : { param: error.param }),
    ...(errors === undefined ? {} : { errors }),
    headers: error.headers,
    ownNumbers: error.ownNumbers,
  });
}
