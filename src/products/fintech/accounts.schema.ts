import { type Static, Type } from 'typebox';
import { Metadata, MetadataFilter, MetadataInput, MetadataUpdate } from '../../modules/metadata/index.ts';
import { CreatedFilter } from '../../platform/http/created-filter.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, oneOfPairs, StringEnum } from '../../platform/kit/schema.ts';
import { freeTextPattern } from '../../platform/kit/text.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { EXAMPLE_ACCOUNT } from './accounts.examples.ts';
import { REAL_COUNTRIES } from './countries.ts';
import { ISSUED_EIN_PREFIXES } from './ein.ts';

/** The single source of truth for the accounts API: validation, OpenAPI, TypeScript types. */

export const AccountType = StringEnum(['business'], {
  description: 'Kind of account. Only `business` today; the enum will grow.',
});

/**
 * The longest legal name, in characters after trimming
 * (docs/api.md#free-text-ids-and-what-the-openapi-document-states).
 */
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

/** A label for people (docs/api.md#fintech-accounts): not unique, not a secret. */
export const NICKNAME_MAX = 100;
const Nickname = FreeText(NICKNAME_MAX, {
  description:
    'A label for people, shown wherever the account is named: 1–100 characters after trimming, without control, ' +
    'invisible or direction-changing characters. Not unique.',
  examples: ['Payroll'],
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
    nickname: Type.Optional(Nickname),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [
      { type: 'business', country: 'US' },
      { type: 'business', country: 'US', nickname: 'Payroll' },
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
    nickname: Type.Union([Type.String(), Type.Null()], { description: 'Its label for people; `null` when none.' }),
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

/**
 * `POST /v1/fintech/accounts/{id}`: the metadata (docs/api.md#metadata-your-own-references) and the nickname change,
 * either or both, also on a closed account.
 */
export const AccountUpdateBody = Type.Object(
  {
    metadata: Type.Optional(MetadataUpdate),
    nickname: Type.Optional(
      Type.String({
        description: 'The new nickname (as at creation), or `""` to clear it.',
        examples: ['Payroll'],
        pattern: `^$|${freeTextPattern(NICKNAME_MAX)}`,
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ metadata: { customer_id: 'cus_4522', old_reference: '' } }, { nickname: 'Payroll' }],
  },
);
export type AccountUpdateBody = Static<typeof AccountUpdateBody>;

export const AccountList = ListPage<Account>('AccountList', 'Account', 'accounts', [EXAMPLE_ACCOUNT], true);
export type AccountList = Static<typeof AccountList>;
