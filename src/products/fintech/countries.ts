import countryToCurrency from 'country-to-currency';
import currencyCodes from 'currency-codes';
import isoCountries from 'i18n-iso-countries/index.js';

/**
 * Country and currency facts come from maintained data packages, not hand-written tables:
 * - i18n-iso-countries (ISO 3166-1 list; its plain entry, without the 80 locale files the Node entry loads),
 * - country-to-currency (ISO 3166-1 alpha-2 → ISO 4217, current for 2026: Bulgaria and Croatia map to EUR),
 * - currency-codes (ISO 4217 list one: each currency's minor-unit exponent).
 */
const alpha2 = new Set(Object.keys(isoCountries.getAlpha2Codes()));

// ISO 3166-1 reserves AA, QM–QZ, XA–XZ and ZZ for user assignment; the data package lists XK (Kosovo) from
// that range, which is not an ISO 3166-1 country, so the user-assigned range is excluded by rule.
function userAssigned(code: string): boolean {
  return code === 'AA' || code === 'ZZ' || code[0] === 'X' || (code[0] === 'Q' && code[1]! >= 'M');
}

/** A real ISO 3166-1 alpha-2 code, uppercase: `US` yes; `us`, `USA`, `ZZ`, `XK` no. */
export function countryIsReal(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && alpha2.has(code) && !userAssigned(code);
}

/** Every real ISO 3166-1 alpha-2 code, sorted. */
export const REAL_COUNTRIES: readonly string[] = [...alpha2].filter(countryIsReal).sort();

export interface Currency {
  code: string;
  /** Digits after the decimal point of the minor unit: 2 for USD (cents), 0 for JPY. */
  exponent: number;
}

// Every country's currency, looked up once: currency-codes finds a code by a linear scan with a new closure per
// call, which V8 kept recompiling on the create path (bench/FINDINGS.md, 2026-11-28).
const currencies = new Map<string, Readonly<Currency> | null>();

/** The country's ISO 4217 currency, or null when the data packages do not know it. */
export function currencyOf(country: string): Readonly<Currency> | null {
  let currency = currencies.get(country);
  if (currency === undefined) {
    currency = lookUpCurrency(country);
    // Only what the data packages know is kept: a client's unknown country adds nothing to the map.
    if (currency !== null) currencies.set(country, currency);
  }
  return currency;
}

function lookUpCurrency(country: string): Readonly<Currency> | null {
  if (!Object.hasOwn(countryToCurrency, country)) return null;
  const code = (countryToCurrency as Record<string, string | undefined>)[country];
  if (code === undefined) return null;
  const entry = currencyCodes.code(code);
  if (entry === undefined) return null;
  return Object.freeze({ code, exponent: entry.digits });
}
