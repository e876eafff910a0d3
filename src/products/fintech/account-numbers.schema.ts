import { type Static, Type } from 'typebox';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { Livemode, Time } from './payments.schema.ts';

/** Bank account numbers of accounts (docs/api.md#bank-account-numbers-and-payments). */

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
