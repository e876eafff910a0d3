import type { SecretShape } from '../../platform/kit/redact.ts';

// Prefixes the IRS has never issued (IRS "How EINs are assigned"); an EIN starting with one is not real.
const NEVER_ISSUED_EIN_PREFIXES = new Set([
  '00',
  '07',
  '08',
  '09',
  '17',
  '18',
  '19',
  '28',
  '29',
  '49',
  '69',
  '70',
  '78',
  '79',
  '89',
  '96',
  '97',
]);
export const ISSUED_EIN_PREFIXES = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')).filter(
  (prefix) => !NEVER_ISSUED_EIN_PREFIXES.has(prefix),
);

/**
 * The EIN as a secret shape (registered in index.ts): the full EIN never appears in a log line or an error detail
 * (docs/api.md#the-request-log), only `[redacted EIN]`. With its dash anywhere; nine digits alone too, not inside a
 * run of letters and digits (as in an id's random part), except in a text whose numbers are the server's own (an
 * amount). The documentation's example, 12-3456789, stays. A field named `ein` is censored whatever it holds.
 */
export const EIN_SHAPE: SecretShape = {
  name: 'EIN',
  pattern: /(?<![0-9])[0-9]{2}-[0-9]{7}(?![0-9])/,
  loose: /(?<![0-9A-Za-z])[0-9]{9}(?![0-9A-Za-z])/,
  hint: /[0-9]{9}|[0-9]{2}-[0-9]{7}/,
  example: '12-3456789',
  fields: ['ein'],
};
