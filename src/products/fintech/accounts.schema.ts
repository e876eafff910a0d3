import { type Static, Type } from 'typebox';
import { CreatedFilter } from '../../platform/http/created-filter.ts';
import { ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { Metadata, MetadataFilter, MetadataInput, MetadataUpdate } from '../../platform/metadata/metadata.schema.ts';
import { REAL_COUNTRIES } from './countries.ts';

/** The single source of truth for the accounts API: validation, OpenAPI, TypeScript types. */

/** A set of two-character codes as one compact pattern: `^(?:A[DEF]|B[AB])$`. */
function oneOfPairs(codes: Iterable<string>, separator = ''): string {
  const byFirst = new Map<string, string[]>();
  for (const code of [...codes].sort()) byFirst.set(code[0]!, [...(byFirst.get(code[0]!) ?? []), code[1]!]);
  return `(?:${[...byFirst].map(([first, seconds]) => `${first}${separator}[${seconds.join('')}]`).join('|')})`;
}

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
const ISSUED_EIN_PREFIXES = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')).filter(
  (prefix) => !NEVER_ISSUED_EIN_PREFIXES.has(prefix),
);

export const AccountType = StringEnum(['business'], {
  description: 'Kind of account. Only `business` today; the enum will grow.',
});

/** The longest legal name, in characters after trimming (CONTRACT §4). */
export const LEGAL_NAME_MAX = 200;

export const KybInput = Type.Object(
  {
    ein: Type.String({
      pattern: `^${oneOfPairs(ISSUED_EIN_PREFIXES)}-\\d{7}$`,
      description: 'US Employer Identification Number, `12-3456789`, with an IRS-issued prefix.',
      examples: ['12-3456789'],
    }),
    legal_name: FreeText(LEGAL_NAME_MAX, {
      description:
        'Legal name of the business: 1–200 characters after trimming, without control, invisible or ' +
        'direction-changing characters (Unicode Cc, Cf, Zl, Zp).',
      examples: ['Acme Corp'],
    }),
  },
  {
    additionalProperties: false,
    description: 'Business verification data. Optional; when present both fields are required.',
  },
);

// `null` passes because `properties`/`required` only constrain objects; an object is checked exactly as KybInput.
const KybOrNull = Type.Unsafe<Static<typeof KybInput> | null>({
  ...KybInput,
  type: ['object', 'null'],
  description:
    'Business verification data. Optional; `null` is the same as leaving it out (a client may send back what it ' +
    'read); when an object, both fields are required.',
});

export const AccountCreateBody = Type.Object(
  {
    type: AccountType,
    country: Type.String({
      pattern: `^${oneOfPairs(REAL_COUNTRIES)}$`,
      description:
        'A real ISO 3166-1 alpha-2 code, uppercase (the pattern lists them). A real code this deployment does not ' +
        'serve gives 400 `country_unsupported`.',
      examples: ['US'],
    }),
    kyb: Type.Optional(KybOrNull),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [
      { type: 'business', country: 'US' },
      { type: 'business', country: 'US', metadata: { customer_id: 'cus_4521' } },
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'Acme Corp' } },
    ],
  },
);
export type AccountCreateBody = Static<typeof AccountCreateBody>;

/** An amount of money: integer minor units and the ISO 4217 currency. */
export function Money(description: string) {
  return Type.Object(
    {
      amount: Type.Integer({
        format: 'int64',
        description: "Integer count of the currency's minor unit (cents for USD, none for JPY).",
      }),
      currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code.' }),
    },
    { additionalProperties: false, description },
  );
}

export const AccountStatusDetails = Type.Object(
  {
    reason: Type.String({
      description:
        'Why: for a freeze `suspected_fraud`, `compliance_review`, `customer_request` or `other`; for a close ' +
        '`customer_request`, `fraud`, `compliance` or `other` (the default). Open enum.',
      examples: ['compliance_review'],
    }),
    note: Type.Union([Type.String(), Type.Null()], { description: 'Free text given with the change, or `null`.' }),
    actor: Type.String({
      description:
        '`api` (an API key) or `operator` (the operator CLI). An account the operator froze cannot be unfrozen ' +
        'with an API key. Open enum.',
      examples: ['api'],
    }),
  },
  {
    $id: 'AccountStatusDetails',
    additionalProperties: false,
    description: 'Why an account is frozen or closed.',
    examples: [{ reason: 'compliance_review', note: 'KYB documents requested on 2026-11-20', actor: 'api' }],
  },
);
export type StatusDetails = Static<typeof AccountStatusDetails>;

/** An account as created: nothing in it yet (CONTRACT §4: the balance is 0 on creation). */
export const EXAMPLE_NEW_ACCOUNT = {
  id: 'acct_D20BX2JY00TY1SK00H0Y2JPAH1',
  object: 'fintech.account',
  type: 'business',
  country: 'US',
  status: 'active',
  status_details: null,
  closed_at: null,
  available_balance: { amount: 0, currency: 'USD' },
  current_balance: { amount: 0, currency: 'USD' },
  kyb: { legal_name: 'Acme Corp', ein_last4: '6789' },
  metadata: {},
  livemode: false,
  created_at: '2026-11-21T12:06Z',
};

/** The same account later, with money in it, part of it held by a pending transfer. */
const EXAMPLE_ACCOUNT = {
  id: 'acct_D20BX2JY00TY1SK00H0Y2JPAH1',
  object: 'fintech.account',
  type: 'business',
  country: 'US',
  status: 'active',
  status_details: null,
  closed_at: null,
  available_balance: { amount: 240000, currency: 'USD' },
  current_balance: { amount: 250000, currency: 'USD' },
  kyb: { legal_name: 'Acme Corp', ein_last4: '6789' },
  metadata: { customer_id: 'cus_4521' },
  livemode: false,
  created_at: '2026-11-21T12:06Z',
};

export const Account = Type.Object(
  {
    id: Type.String({
      pattern: idPattern('acct'),
      description: 'Server-assigned: `acct_` and an opaque, time-sortable string.',
    }),
    object: Type.Literal('fintech.account'),
    type: Type.String({ description: 'Kind of account, e.g. `business`.' }),
    country: Type.String({ description: 'ISO 3166-1 alpha-2 code.' }),
    status: Type.String({
      description:
        'Lifecycle status: `active` on creation, `frozen` (takes no debit and no credit) or `closed` (final). ' +
        'Open enum: clients must accept values they do not know.',
      examples: ['active'],
    }),
    status_details: Type.Unsafe<StatusDetails | null>({
      anyOf: [Type.Ref('AccountStatusDetails'), { type: 'null' }],
      description: '`null` while active; why and by whom the account was frozen or closed otherwise.',
    }),
    closed_at: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      pattern: API_TIME_PATTERN,
      description: 'When the account was closed, UTC `YYYY-MM-DDTHH:MMZ`; `null` unless closed.',
    }),
    available_balance: Money(
      'What can be spent now: `current_balance` less what its pending outgoing transfers hold. Never below 0; ' +
        '`insufficient_funds` is judged on it. 0 on creation.',
    ),
    current_balance: Money(
      'What the account holds: every posted movement. Pending transfers move it only when they post.',
    ),
    kyb: Type.Unsafe<{ legal_name: string; ein_last4: string } | null>({
      type: ['object', 'null'],
      properties: { legal_name: { type: 'string' }, ein_last4: { type: 'string', pattern: '^\\d{4}$' } },
      required: ['legal_name', 'ein_last4'],
      additionalProperties: false,
      description:
        'Business verification data as given, with only the last four digits of the EIN; `null` when none was given.',
    }),
    metadata: Metadata,
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
    created_at: Type.String({ pattern: API_TIME_PATTERN, description: 'Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.' }),
  },
  {
    $id: 'Account',
    additionalProperties: false,
    description: 'A fintech account.',
    examples: [EXAMPLE_ACCOUNT],
  },
);
export type Account = Static<typeof Account>;

export const AccountIdParams = Type.Object(
  { id: IdOf('acct', { description: 'An account id, `acct_…`.' }) },
  { additionalProperties: false },
);

export const AccountListQuery = Type.Object(
  {
    ...ListQuery('account', 'acct').properties,
    status: Type.Optional(StringEnum(['active', 'frozen', 'closed'], { description: 'Only accounts in this status.' })),
    created: Type.Optional(CreatedFilter),
    metadata: Type.Optional(MetadataFilter),
  },
  { additionalProperties: false },
);
export type AccountListQuery = Static<typeof AccountListQuery>;

/** `POST /v1/fintech/accounts/{id}`: only the metadata changes (CONTRACT §15), also on a closed account. */
export const AccountUpdateBody = Type.Object(
  { metadata: MetadataUpdate },
  {
    additionalProperties: false,
    examples: [{ metadata: { customer_id: 'cus_4522', old_reference: '' } }],
  },
);
export type AccountUpdateBody = Static<typeof AccountUpdateBody>;

export const AccountList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(Type.Unsafe<Account>(Type.Ref('Account'))),
    has_more: Type.Boolean({ description: 'Whether more accounts lie beyond this page in the direction of travel.' }),
  },
  {
    $id: 'AccountList',
    additionalProperties: false,
    description: 'One page of accounts, newest first.',
    examples: [{ object: 'list', data: [EXAMPLE_ACCOUNT], has_more: true }],
  },
);
