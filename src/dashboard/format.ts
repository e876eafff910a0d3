import currencyCodes from 'currency-codes';
import { type Html, html } from './html.ts';

/**
 * How the dashboard shows what the API returns: amounts in the currency's major unit (its ISO 4217 exponent from
 * currency-codes, the data package the API uses for the same facts), times in UTC with a relative hint. Amounts
 * are exact: integers of minor units are split as text, never divided as floats.
 */

/** Digits after the decimal point: 2 for USD, 0 for JPY; 2 when the data package does not know the code. */
export function exponentOf(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 123456 USD → `1,234.56 USD`; −5 USD → `−0.05 USD`; 7 JPY → `7 JPY`. */
export function majorUnits(amount: number | bigint, currency: string): string {
  const exponent = exponentOf(currency);
  const digits = String(amount < 0 ? -amount : amount).padStart(exponent + 1, '0');
  const whole = grouped(digits.slice(0, digits.length - exponent));
  const fraction = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${amount < 0 ? '−' : ''}${whole}${fraction} ${currency}`;
}

/** 123456 USD → `1234.56`; −5 USD → `-0.05`: a plain number a spreadsheet reads (no grouping, no code). */
export function decimal(amount: number | bigint, currency: string): string {
  return majorUnits(amount, currency)
    .slice(0, -(currency.length + 1))
    .replace(/,/g, '')
    .replace('−', '-');
}

export function money(amount: number | bigint, currency: string, signed = false): Html {
  const text = majorUnits(amount, currency);
  const sign = signed && amount > 0 ? '+' : '';
  const tone = signed ? (amount < 0 ? ' out' : ' in') : '';
  return html`<span class="amount${tone}">${sign}${text}</span>`;
}

/**
 * A major-unit amount typed by a person (`12.5`, `1,000.00`, `7`) as an integer of minor units, or null when it is
 * not one: more decimals than the currency has, not a number, or beyond 2^53 − 1 minor units.
 */
export function parseMajorUnits(text: string, currency: string): number | null {
  const exponent = exponentOf(currency);
  const clean = text.trim().replace(/,/g, '');
  const match = /^(\d{1,16})(?:\.(\d+))?$/.exec(clean);
  if (match === null) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) return null;
  const minor = BigInt(match[1]!) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor);
}

const UNITS: [number, string][] = [
  [60, 'second'],
  [60, 'minute'],
  [24, 'hour'],
  [30, 'day'],
  [12, 'month'],
  [Number.POSITIVE_INFINITY, 'year'],
];

/**
 * `3 minutes ago`, `in 2 hours`, `just now`. A time given to the minute (`2026-11-25T10:04Z`, as the API shows most
 * times) is any moment of that minute: it is counted in whole minutes, from its minute to now's (`this minute`,
 * `1 minute ago`), never in seconds from the minute's start (a 3-second-old account is not "58 seconds ago").
 */
export function relative(at: Date, now: Date, precision: 'second' | 'minute' = 'second'): string {
  if (precision === 'minute') {
    const minutes = Math.floor(now.getTime() / 60_000) - Math.floor(at.getTime() / 60_000);
    if (minutes === 0) return 'this minute';
    return counted(Math.abs(minutes) * 60, minutes < 0);
  }
  const value = (now.getTime() - at.getTime()) / 1000;
  if (Math.abs(value) < 45) return value < 0 ? 'in a moment' : 'just now';
  return counted(Math.abs(value), value < 0);
}

function counted(seconds: number, future: boolean): string {
  let value = seconds;
  for (const [size, unit] of UNITS) {
    if (value < size) {
      const n = Math.round(value);
      const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return future ? `in ${text}` : `${text} ago`;
    }
    value /= size;
  }
  return '';
}

/** An API time given to the minute (`2026-11-25T10:04Z`), not to the second or millisecond. */
const toTheMinute = (apiTime: string) => /T\d\d:\d\dZ$/.test(apiTime);

/** An API time (`2026-11-25T10:04Z`) as `2026-11-25 10:04 UTC`, with the relative hint beside it. */
export function time(apiTime: string | null, now: Date): Html {
  if (apiTime === null) return html`<span class="muted">—</span>`;
  const at = new Date(apiTime);
  if (Number.isNaN(at.getTime())) return html`${apiTime}`;
  const text = `${apiTime.slice(0, 10)} ${apiTime.slice(11, 16)} UTC`;
  const hint = relative(at, now, toTheMinute(apiTime) ? 'minute' : 'second');
  const machine = toTheMinute(apiTime) ? apiTime : at.toISOString();
  return html`<time datetime="${machine}">${text}</time> <span class="hint">${hint}</span>`;
}

const TONES: Record<string, string> = {
  active: 'good',
  enabled: 'good',
  succeeded: 'good',
  posted: 'good',
  reversed: 'muted',
  frozen: 'warn',
  pending: 'info',
  disabled: 'bad',
  failed: 'bad',
  closed: 'muted',
  revoked: 'muted',
  voided: 'muted',
  expired: 'muted',
  pending_submission: 'info',
  submitted: 'info',
  settled: 'good',
  returned: 'bad',
  rejected: 'bad',
  canceled: 'muted',
};

/** A status as a badge; a status the dashboard does not know yet (the enums are open) gets the neutral tone. */
export function badge(status: string): Html {
  return html`<span class="badge ${TONES[status] ?? 'neutral'}">${status}</span>`;
}
