import { Type } from 'typebox';
import { integer, text } from '../../platform/kit/settings.ts';
import { countryIsReal, currencyOf } from './countries.ts';

/** US, CA, GB, AU and the euro-area members as of 2026. */
export const DEFAULT_COUNTRIES = 'US,CA,GB,AU,AT,BE,BG,HR,CY,EE,FI,FR,DE,GR,IE,IT,LV,LT,LU,MT,NL,PT,SK,SI,ES';

function countries(raw: string): ReadonlySet<string> {
  const codes = raw
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const bad = codes.filter((c) => !countryIsReal(c));
  if (bad.length > 0) throw new Error(`not ISO 3166-1 alpha-2 codes: ${bad.join(', ')}`);
  const noCurrency = codes.filter((c) => currencyOf(c) === null);
  if (noCurrency.length > 0) throw new Error(`no ISO 4217 currency known for: ${noCurrency.join(', ')}`);
  if (codes.length === 0) throw new Error('must list at least one country');
  return new Set(codes);
}

/** An ABA routing number: nine digits whose weighted sum (3, 7, 1, …) is a multiple of 10. */
export function isRoutingNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0;
}

function routingNumber(raw: string): string | null {
  if (raw === '') return null;
  if (!isRoutingNumber(raw)) throw new Error('must be a 9-digit ABA routing number with a valid check digit');
  return raw;
}

function originId(raw: string): string {
  if (!/^[A-Za-z0-9 ]{0,10}$/.test(raw)) throw new Error('must be at most 10 letters, digits or spaces');
  return raw;
}

export const FintechSettings = Type.Object({
  BANK_ROUTING_NUMBER: text<string | null>(
    '',
    "the ABA routing number of the bank holding this deployment's live accounts; live account numbers need it (unset: " +
      '409 `live_rails_not_configured`)',
    routingNumber,
  ),
  BANK_NAME: text(
    '',
    "the name of the bank holding this deployment's live accounts, as `bank ach-export` writes it in a NACHA file's " +
      'header (immediate destination name, up to 23 characters); the export needs it',
  ),
  BANK_ORIGIN_ID: text(
    '',
    'the originator identification the bank assigned this deployment (up to 10 characters, often "1" and a tax ID): ' +
      "a NACHA file's immediate origin and each batch's company identification; `bank ach-export` needs it",
    originId,
  ),
  SUPPORTED_COUNTRIES: text(
    DEFAULT_COUNTRIES,
    'comma-separated ISO 3166-1 alpha-2 codes of the countries this deployment opens accounts in; the default is ' +
      'US, CA, GB, AU and the 21 euro-area members of 2026',
    countries,
  ),
  TRANSFER_EXPIRY_SWEEP_SECONDS: integer(
    10,
    1,
    60,
    'how often pending transfers past their expires_at are marked expired and their holds released (a post or void ' +
      'after expires_at is refused at once, sweep or not)',
  ),
});
