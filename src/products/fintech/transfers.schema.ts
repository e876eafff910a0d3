import { type Static, Type } from 'typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, Ref } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { MAX_AMOUNT } from './ledger/amount.ts';

/** Money amounts in requests: integer minor units, 1 to 2^53 − 1. */
export const Amount = Type.Integer({
  format: 'int64',
  minimum: 1,
  maximum: MAX_AMOUNT,
  description: "A positive integer count of the currency's minor unit (cents for USD), at most 9007199254740991.",
  examples: [2500],
});

/** The longest description of a movement of money, in characters after trimming (CONTRACT §10). */
export const DESCRIPTION_MAX = 200;

export const Description = FreeText(DESCRIPTION_MAX, {
  description:
    'Free text for people: 1–200 characters after trimming, without control, invisible or direction-changing ' +
    'characters (Unicode Cc, Cf, Zl, Zp).',
  examples: ['Invoice 2026-114'],
});

// Each side has an example of its own: examples are combined field by field, and one shared by both would make a
// transfer from an account to itself, which is refused.
const AccountId = (description: string, example: string) => IdOf('acct', { description, examples: [example] });

export const TransferCreateBody = Type.Object(
  {
    from_account_id: AccountId('The account debited.', 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV'),
    to_account_id: AccountId(
      'The account credited. Not the same as `from_account_id` (400 `parameter_invalid`, `param` ' +
        '`to_account_id`): a rule between two fields, which no JSON Schema keyword states.',
      'acct_01M7Z2620T4Y3W5QH0Q8MZB2KD',
    ),
    amount: Amount,
    currency: Type.String({
      pattern: '^[A-Z]{3}$',
      description: 'ISO 4217 code; must be the currency of both accounts.',
      examples: ['USD'],
    }),
    description: Type.Optional(Description),
  },
  {
    additionalProperties: false,
    examples: [
      {
        from_account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
        to_account_id: 'acct_01M7Z2620T4Y3W5QH0Q8MZB2KD',
        amount: 2500,
        currency: 'USD',
        description: 'Invoice 2026-114',
      },
    ],
  },
);
export type TransferCreateBody = Static<typeof TransferCreateBody>;

const EXAMPLE_TRANSFER = {
  id: 'tr_01M7Z2C4H2XK8P3Q9VJ6T5N0AB',
  object: 'fintech.transfer',
  from_account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
  to_account_id: 'acct_01M7Z2620T4Y3W5QH0Q8MZB2KD',
  amount: 2500,
  currency: 'USD',
  description: 'Invoice 2026-114',
  status: 'posted',
  livemode: false,
  created_at: '2026-11-22T10:15Z',
};

export const Transfer = Type.Object(
  {
    id: Type.String({ pattern: idPattern('tr'), description: '`tr_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.transfer'),
    from_account_id: Type.String({ description: 'The account debited.' }),
    to_account_id: Type.String({ description: 'The account credited.' }),
    amount: Type.Integer({ format: 'int64', description: 'Minor units moved; positive.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'As given, trimmed; `null` if none.' }),
    status: Type.String({
      description: '`posted`: transfers are synchronous and final. Open enum: clients must accept new values.',
      examples: ['posted'],
    }),
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
    created_at: Type.String({ pattern: API_TIME_PATTERN, description: 'Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.' }),
  },
  {
    $id: 'Transfer',
    additionalProperties: false,
    description: 'Money moved from one account to another of the same org, mode and currency.',
    examples: [EXAMPLE_TRANSFER],
  },
);
export type Transfer = Static<typeof Transfer>;

export const TransferIdParams = Type.Object(
  { id: IdOf('tr', { description: 'A transfer id, `tr_…`.' }) },
  { additionalProperties: false },
);

export const TransferListQuery = Type.Object(
  {
    account_id: Type.Optional(
      IdOf('acct', { description: 'Only transfers from or to this account (404 `resource_not_found` if none).' }),
    ),
    ...ListQuery('transfer', 'tr').properties,
  },
  { additionalProperties: false },
);
export type TransferListQuery = Static<typeof TransferListQuery>;

export const TransferList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(Ref<Transfer>('Transfer')),
    has_more: Type.Boolean({ description: 'Whether more transfers lie beyond this page in the direction of travel.' }),
  },
  {
    $id: 'TransferList',
    additionalProperties: false,
    description: 'One page of transfers, newest first.',
    examples: [{ object: 'list', data: [EXAMPLE_TRANSFER], has_more: false }],
  },
);
export type TransferList = Static<typeof TransferList>;
