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

export const FintechSettings = Type.Object({
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
