import { type Static, Type } from 'typebox';
import { Metadata, MetadataInput } from '../../modules/metadata/index.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { RETURN_CODES } from './payments.returns.ts';
import { Amount, Description } from './transfers.schema.ts';

/**
 * Bank account numbers, external accounts, payments over ACH, wire and RTP, and the sandbox's simulations and rules
 * (docs/api.md#bank-account-numbers-and-payments).
 */

export const Time = (description: string) => Type.String({ pattern: API_TIME_PATTERN, description });
export const TimeOrNull = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: API_TIME_PATTERN, description });
export const Livemode = Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' });
export const Rail = StringEnum(['ach', 'wire', 'rtp'], {
  description: 'The rail: `ach`, `wire` or `rtp`.',
  examples: ['ach'],
});
export const RoutingNumber = Type.String({
  pattern: '^[0-9]{9}$',
  description: 'An ABA routing number: 9 digits, the last a check digit (else 400 `parameter_invalid`).',
  examples: ['021000021'],
});
export const ReturnCode = StringEnum(RETURN_CODES, {
  description: 'An ACH return reason code (docs: ACH return reasons).',
  examples: ['R01'],
});

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
