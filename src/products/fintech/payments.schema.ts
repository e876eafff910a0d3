import { type Static, Type } from 'typebox';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { Metadata, MetadataInput, MetadataUpdate } from '../../platform/metadata/metadata.schema.ts';
import { CHANGE_CODES, RETURN_CODES } from './payments.returns.ts';
import { Amount, Description } from './transfers.schema.ts';

/**
 * Bank account numbers, external accounts, payments over ACH, wire and RTP, and the sandbox's simulations and rules
 * (docs/api.md#bank-account-numbers-and-payments).
 */

const Time = (description: string) => Type.String({ pattern: API_TIME_PATTERN, description });
const TimeOrNull = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: API_TIME_PATTERN, description });
const Livemode = Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' });
const Rail = StringEnum(['ach', 'wire', 'rtp'], {
  description: 'The rail: `ach`, `wire` or `rtp`.',
  examples: ['ach'],
});
const RoutingNumber = Type.String({
  pattern: '^[0-9]{9}$',
  description: 'An ABA routing number: 9 digits, the last a check digit (else 400 `parameter_invalid`).',
  examples: ['021000021'],
});
const ReturnCode = StringEnum(RETURN_CODES, {
  description: 'An ACH return reason code (docs: ACH return reasons).',
  examples: ['R01'],
});

// ---- Account numbers ----------------------------------------------------------------------------------------

export const AccountNumberCreateBody = Type.Object(
  {
    account_id: IdOf('acct', {
      description: 'The account that money sent to this number reaches.',
      examples: ['acct_01M7Z25FCR5ZY0JCJ80M91V6XV'],
    }),
    name: Type.Optional(
      FreeText(100, { description: 'A label for people, 1–100 characters.', examples: ['Rent collection'] }),
    ),
    inbound_debits: Type.Optional(
      StringEnum(['allowed', 'blocked'], {
        description: 'Whether others may pull money by ACH debit from this number; default `blocked` (returned R29).',
        examples: ['blocked'],
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV', name: 'Rent collection' }],
  },
);
export type AccountNumberCreateBody = Static<typeof AccountNumberCreateBody>;

export const AccountNumberUpdateBody = Type.Object(
  {
    name: Type.Optional(FreeText(100, { description: 'A label for people, 1–100 characters.' })),
    status: Type.Optional(
      StringEnum(['active', 'disabled'], {
        description: '`disabled`: payments to it are returned (R02). A closed account’s numbers stay disabled.',
      }),
    ),
    inbound_debits: Type.Optional(StringEnum(['allowed', 'blocked'], { description: 'As on create.' })),
  },
  { additionalProperties: false, examples: [{ status: 'disabled' }] },
);
export type AccountNumberUpdateBody = Static<typeof AccountNumberUpdateBody>;

const EXAMPLE_ACCOUNT_NUMBER = {
  id: 'an_01M7Z2A9W3J6Q8R1T5Y7V9H0QP',
  object: 'fintech.account_number',
  account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
  routing_number: '110000000',
  account_number: null,
  account_number_last4: '4821',
  name: 'Rent collection',
  status: 'active',
  inbound_debits: 'blocked',
  livemode: false,
  created_at: '2026-11-28T09:30Z',
};

export const AccountNumber = Type.Object(
  {
    id: Type.String({ pattern: idPattern('an'), description: '`an_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.account_number'),
    account_id: Type.String({ description: 'The account it reaches.' }),
    routing_number: Type.String({ description: 'The routing number to give with it: 110000000 in the sandbox.' }),
    account_number: Type.Union([Type.String({ pattern: '^[0-9]{12}$' }), Type.Null()], {
      description:
        'The 12 digits, in the answer to its creation only (a secret, shown once); `null` in every other answer: ' +
        'keep it then, or show `account_number_last4`.',
    }),
    account_number_last4: Type.String({ pattern: '^[0-9]{4}$', description: 'Its last four digits.' }),
    name: Type.Union([Type.String(), Type.Null()], { description: 'As given; `null` if none.' }),
    status: Type.String({ description: '`active` or `disabled`. Open enum.', examples: ['active'] }),
    inbound_debits: Type.String({ description: '`allowed` or `blocked`.', examples: ['blocked'] }),
    livemode: Livemode,
    created_at: Time('Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.'),
  },
  {
    $id: 'AccountNumber',
    additionalProperties: false,
    description: 'A bank account number of an account: money sent to it (ACH, wire, RTP) reaches the account.',
    examples: [{ ...EXAMPLE_ACCOUNT_NUMBER, account_number: '771093524821' }, EXAMPLE_ACCOUNT_NUMBER],
  },
);
export type AccountNumber = Static<typeof AccountNumber>;

export const AccountNumberIdParams = Type.Object(
  { id: IdOf('an', { description: 'An account number id, `an_…`.' }) },
  { additionalProperties: false },
);

export const AccountNumberListQuery = Type.Object(
  {
    account_id: Type.Optional(IdOf('acct', { description: 'Only the numbers of this account.' })),
    status: Type.Optional(StringEnum(['active', 'disabled'], { description: 'Only numbers in this status.' })),
    ...ListQuery('account number', 'an').properties,
  },
  { additionalProperties: false },
);
export type AccountNumberListQuery = Static<typeof AccountNumberListQuery>;

export const AccountNumberList = ListPage<AccountNumber>(
  'AccountNumberList',
  'AccountNumber',
  'account numbers',
  [EXAMPLE_ACCOUNT_NUMBER],
  false,
);
export type AccountNumberList = Static<typeof AccountNumberList>;

// ---- External accounts --------------------------------------------------------------------------------------

export const ExternalAccountCreateBody = Type.Object(
  {
    routing_number: RoutingNumber,
    account_number: Type.String({
      pattern: '^[0-9]{4,17}$',
      description: 'The account number at that bank, 4–17 digits. Shown afterwards as its last four digits only.',
      examples: ['000123456789'],
    }),
    account_holder_name: FreeText(140, {
      description: 'Whose account it is, 1–140 characters.',
      examples: ['Acme Supplies LLC'],
    }),
    account_type: StringEnum(['checking', 'savings'], {
      description: '`checking` or `savings`.',
      examples: ['checking'],
    }),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        routing_number: '021000021',
        account_number: '000123456789',
        account_holder_name: 'Acme Supplies LLC',
        account_type: 'checking',
      },
    ],
  },
);
export type ExternalAccountCreateBody = Static<typeof ExternalAccountCreateBody>;

export const ExternalAccountUpdateBody = Type.Object(
  {
    account_holder_name: Type.Optional(FreeText(140, { description: 'Whose account it is, 1–140 characters.' })),
    metadata: Type.Optional(MetadataUpdate),
  },
  { additionalProperties: false, examples: [{ account_holder_name: 'Acme Supplies Inc.' }] },
);
export type ExternalAccountUpdateBody = Static<typeof ExternalAccountUpdateBody>;

const EXAMPLE_EXTERNAL = {
  id: 'ext_01M7Z2B4K8D2F6H0J4M8N2P6R0',
  object: 'fintech.external_account',
  routing_number: '021000021',
  account_number_last4: '6789',
  account_holder_name: 'Acme Supplies LLC',
  account_type: 'checking',
  status: 'active',
  metadata: {},
  livemode: false,
  created_at: '2026-11-28T09:31Z',
};

export const ExternalAccount = Type.Object(
  {
    id: Type.String({ pattern: idPattern('ext'), description: '`ext_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.external_account'),
    routing_number: Type.String({ description: 'Its bank’s ABA routing number.' }),
    account_number_last4: Type.String({ pattern: '^[0-9]{4}$', description: 'The last four digits of its number.' }),
    account_holder_name: Type.String({ description: 'Whose account it is.' }),
    account_type: Type.String({ description: '`checking` or `savings`.' }),
    status: Type.String({ description: '`active`. Open enum.', examples: ['active'] }),
    metadata: Metadata,
    livemode: Livemode,
    created_at: Time('Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.'),
  },
  {
    $id: 'ExternalAccount',
    additionalProperties: false,
    description: 'A bank account outside Plinth that payments are sent to: a counterparty.',
    examples: [EXAMPLE_EXTERNAL],
  },
);
export type ExternalAccount = Static<typeof ExternalAccount>;

export const ExternalAccountIdParams = Type.Object(
  { id: IdOf('ext', { description: 'An external account id, `ext_…`.' }) },
  { additionalProperties: false },
);
export const ExternalAccountListQuery = Type.Object(
  { ...ListQuery('external account', 'ext').properties },
  { additionalProperties: false },
);
export type ExternalAccountListQuery = Static<typeof ExternalAccountListQuery>;
export const ExternalAccountList = ListPage<ExternalAccount>(
  'ExternalAccountList',
  'ExternalAccount',
  'external accounts',
  [EXAMPLE_EXTERNAL],
  false,
);
export type ExternalAccountList = Static<typeof ExternalAccountList>;

// ---- Payments -----------------------------------------------------------------------------------------------

export const PAYMENT_STATUSES = [
  'pending_submission',
  'submitted',
  'settled',
  'returned',
  'rejected',
  'canceled',
] as const;

export const PaymentCreateBody = Type.Object(
  {
    account_id: IdOf('acct', { description: 'The account paying.', examples: ['acct_01M7Z25FCR5ZY0JCJ80M91V6XV'] }),
    external_account_id: IdOf('ext', { description: 'Who is paid.', examples: ['ext_01M7Z2B4K8D2F6H0J4M8N2P6R0'] }),
    amount: Amount,
    currency: Type.Literal('USD', { description: 'Payments are in US dollars.' }),
    rail: Rail,
    description: Type.Optional(Description),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
        external_account_id: 'ext_01M7Z2B4K8D2F6H0J4M8N2P6R0',
        amount: 6000,
        currency: 'USD',
        rail: 'ach',
        description: 'Invoice 2026-118',
      },
    ],
  },
);
export type PaymentCreateBody = Static<typeof PaymentCreateBody>;

const EXAMPLE_PAYMENT = {
  id: 'pay_01M7Z2C7X1V5B9N3M7Q1W5E9R3',
  object: 'fintech.payment',
  direction: 'outbound',
  rail: 'ach',
  account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
  external_account_id: 'ext_01M7Z2B4K8D2F6H0J4M8N2P6R0',
  account_number_id: null,
  amount: 6000,
  currency: 'USD',
  status: 'pending_submission',
  return_reason: null,
  transfer_id: 'tr_01M7Z2C7X1V5B9N3M7Q1W5E9R4',
  originator_name: null,
  submitted_at: null,
  settled_at: null,
  returned_at: null,
  description: 'Invoice 2026-118',
  metadata: {},
  livemode: false,
  created_at: '2026-11-28T09:32Z',
};

export const Payment = Type.Object(
  {
    id: Type.String({ pattern: idPattern('pay'), description: '`pay_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.payment'),
    direction: Type.String({
      description: '`outbound` (sent by the account) or `inbound` (received).',
      examples: ['outbound'],
    }),
    rail: Type.String({ description: '`ach`, `wire` or `rtp`. Open enum.', examples: ['ach'] }),
    account_id: Type.String({ description: 'The account paying (outbound) or paid (inbound).' }),
    external_account_id: Type.Union([Type.String(), Type.Null()], {
      description: 'Who is paid (outbound); `null` inbound.',
    }),
    account_number_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The account number an inbound payment was sent to; `null` outbound.',
    }),
    amount: Type.Integer({ format: 'int64', description: 'Minor units (cents); positive.' }),
    currency: Type.String({ description: '`USD`.' }),
    status: Type.String({
      description:
        '`pending_submission` → `submitted` → `settled`; or `returned` (ACH, with `return_reason`), `rejected` (wire, ' +
        'RTP) or `canceled`. Open enum.',
      examples: ['submitted'],
    }),
    return_reason: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({ description: 'The ACH return code, `R01`…', examples: ['R01'] }),
            description: Type.String({ description: 'What it means.', examples: ['Insufficient funds'] }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why it was returned; `null` unless `returned`.' },
    ),
    transfer_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'The transfer that moves its money: for a payment out a pending transfer to the rail’s clearing account, ' +
        'posted at settlement; `null` for an inbound payment returned without moving money.',
    }),
    originator_name: Type.Union([Type.String(), Type.Null()], {
      description: 'Who sent an inbound payment; `null` outbound.',
    }),
    submitted_at: TimeOrNull('When it went to the rail; `null` before.'),
    settled_at: TimeOrNull('When it settled; `null` before.'),
    returned_at: TimeOrNull('When it was returned, rejected or canceled; `null` otherwise.'),
    description: Type.Union([Type.String(), Type.Null()], { description: 'As given, trimmed; `null` if none.' }),
    metadata: Metadata,
    livemode: Livemode,
    created_at: Time('Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.'),
  },
  {
    $id: 'Payment',
    additionalProperties: false,
    description: 'Money sent to, or received from, a bank account outside Plinth over ACH, wire or RTP.',
    examples: [EXAMPLE_PAYMENT],
  },
);
export type Payment = Static<typeof Payment>;

export const PaymentIdParams = Type.Object(
  { id: IdOf('pay', { description: 'A payment id, `pay_…`.' }) },
  { additionalProperties: false },
);
export const PaymentListQuery = Type.Object(
  {
    account_id: Type.Optional(IdOf('acct', { description: 'Only the payments of this account.' })),
    status: Type.Optional(StringEnum(PAYMENT_STATUSES, { description: 'Only payments in this status.' })),
    rail: Type.Optional(StringEnum(['ach', 'wire', 'rtp'], { description: 'Only payments on this rail.' })),
    direction: Type.Optional(StringEnum(['outbound', 'inbound'], { description: 'Only payments in this direction.' })),
    ...ListQuery('payment', 'pay').properties,
  },
  { additionalProperties: false },
);
export type PaymentListQuery = Static<typeof PaymentListQuery>;
export const PaymentList = ListPage<Payment>('PaymentList', 'Payment', 'payments', [EXAMPLE_PAYMENT], false);
export type PaymentList = Static<typeof PaymentList>;

// ---- Sandbox: simulations and rules -------------------------------------------------------------------------

export const InboundPaymentBody = Type.Object(
  {
    account_number: Type.String({
      pattern: '^[0-9]{12}$',
      description: 'One of your sandbox account numbers, 12 digits.',
      examples: ['771093524821'],
    }),
    amount: Amount,
    rail: Rail,
    direction: StringEnum(['credit', 'debit'], {
      description: '`credit`: money in; `debit` (ACH only): someone pulls money out.',
      examples: ['credit'],
    }),
    originator_name: FreeText(140, {
      description: 'Who sends it, 1–140 characters.',
      examples: ['Globex Corporation'],
    }),
    description: Type.Optional(Description),
  },
  {
    additionalProperties: false,
    examples: [
      {
        account_number: '771093524821',
        amount: 10000,
        rail: 'ach',
        direction: 'credit',
        originator_name: 'Globex Corporation',
      },
    ],
  },
);
export type InboundPaymentBody = Static<typeof InboundPaymentBody>;

export const PaymentReturnBody = Type.Object(
  { reason: ReturnCode },
  { additionalProperties: false, examples: [{ reason: 'R01' }] },
);
export type PaymentReturnBody = Static<typeof PaymentReturnBody>;

export const NotificationOfChangeBody = Type.Object(
  {
    code: StringEnum(Object.keys(CHANGE_CODES) as (keyof typeof CHANGE_CODES)[], {
      description: '`C01` (account number), `C02` (routing number) or `C03` (both).',
      examples: ['C01'],
    }),
    corrected_data: Type.String({
      pattern: '^[0-9]{4,17}$|^[0-9]{9} [0-9]{4,17}$',
      description:
        'C01: the account number; C02: the routing number; C03: the routing number, a space, the account number.',
      examples: ['000987654321'],
    }),
  },
  { additionalProperties: false, examples: [{ code: 'C01', corrected_data: '000987654321' }] },
);
export type NotificationOfChangeBody = Static<typeof NotificationOfChangeBody>;

const DURATION_PATTERN = '^P(?:[0-9]+D)?(?:T(?:[0-9]+H)?(?:[0-9]+M)?)?$';

export const PaymentRuleCreateBody = Type.Object(
  {
    match: Type.Object(
      {
        amount: Type.Optional(Amount),
        rail: Type.Optional(Rail),
        external_account_number: Type.Optional(
          Type.String({ pattern: '^[0-9]{4,17}$', description: 'The external account’s number, 4–17 digits.' }),
        ),
      },
      {
        additionalProperties: false,
        description: 'What a payment out must match, every field given; `{}` matches all.',
      },
    ),
    action: Type.Union(
      [
        Type.Object(
          {
            return: ReturnCode,
            at: Type.String({
              pattern: `^(?:submission|settlement)$|${DURATION_PATTERN}`,
              description:
                '`submission` (returned when submitted, before settling), `settlement` (returned instead of settling) or ' +
                'an ISO 8601 duration after settlement, such as `P2D` (settled, then returned: a reversal).',
              examples: ['P2D'],
            }),
          },
          { additionalProperties: false },
        ),
        Type.Object(
          { reject: Type.Literal(true, { description: 'Wire and RTP: rejected at submission.' }) },
          { additionalProperties: false },
        ),
      ],
      { description: 'ACH: `{"return": "R01", "at": …}`; wire and RTP: `{"reject": true}`.' },
    ),
  },
  { additionalProperties: false, examples: [{ match: { amount: 6000 }, action: { return: 'R01', at: 'P2D' } }] },
);
export type PaymentRuleCreateBody = Static<typeof PaymentRuleCreateBody>;

const EXAMPLE_RULE = {
  id: 'prule_01M7Z2D1F5G9H3J7K1M5M9N3B7',
  object: 'sandbox.payment_rule',
  match: { amount: 6000, rail: null, external_account_number_last4: null },
  action: { return: 'R01', at: 'P2D', reject: false },
  created_at: '2026-11-28T09:33Z',
};

export const PaymentRule = Type.Object(
  {
    id: Type.String({ pattern: idPattern('prule'), description: '`prule_` and an opaque, time-sortable string.' }),
    object: Type.Literal('sandbox.payment_rule'),
    match: Type.Object(
      {
        amount: Type.Union([Type.Integer({ format: 'int64' }), Type.Null()]),
        rail: Type.Union([Type.String(), Type.Null()]),
        external_account_number_last4: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false, description: 'What it matches; `null`: any.' },
    ),
    action: Type.Object(
      {
        return: Type.Union([Type.String(), Type.Null()]),
        at: Type.Union([Type.String(), Type.Null()]),
        reject: Type.Boolean(),
      },
      { additionalProperties: false, description: 'What it does to a payment that matches, when its moment comes.' },
    ),
    created_at: Time('Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.'),
  },
  {
    $id: 'PaymentRule',
    additionalProperties: false,
    description: 'A sandbox rule: payments out that match are returned or rejected when their moment comes.',
    examples: [EXAMPLE_RULE],
  },
);
export type PaymentRule = Static<typeof PaymentRule>;
export const PaymentRuleIdParams = Type.Object(
  { id: IdOf('prule', { description: 'A payment rule id, `prule_…`.' }) },
  { additionalProperties: false },
);
export const PaymentRuleListQuery = Type.Object(
  { ...ListQuery('payment rule', 'prule').properties },
  { additionalProperties: false },
);
export type PaymentRuleListQuery = Static<typeof PaymentRuleListQuery>;
export const PaymentRuleList = ListPage<PaymentRule>(
  'PaymentRuleList',
  'PaymentRule',
  'payment rules',
  [EXAMPLE_RULE],
  false,
);
export type PaymentRuleList = Static<typeof PaymentRuleList>;
export const PaymentRuleDeleted = Type.Object(
  { id: Type.String(), object: Type.Literal('sandbox.payment_rule'), deleted: Type.Literal(true) },
  {
    $id: 'PaymentRuleDeleted',
    additionalProperties: false,
    examples: [{ id: EXAMPLE_RULE.id, object: 'sandbox.payment_rule', deleted: true }],
  },
);
export type PaymentRuleDeleted = Static<typeof PaymentRuleDeleted>;
