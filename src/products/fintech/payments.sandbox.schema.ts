import { type Static, Type } from 'typebox';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { CHANGE_CODES } from './payments.returns.ts';
import { Rail, ReturnCode, Time } from './payments.schema.ts';
import { Amount, Description } from './transfers.schema.ts';

/** The sandbox's payment simulations and rules (docs/api.md#bank-account-numbers-and-payments). */

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
