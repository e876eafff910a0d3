import { type Static, Type } from 'typebox';
import { TIME_PATTERN } from '../../platform/http/created-filter.ts';

/** Balances at a past moment and statements (docs/api.md#balances-over-time-and-statements). */

/** A moment as an answer echoes it: RFC 3339 in UTC with milliseconds, the exact moment used. */
const MOMENT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
const Moment = (description: string) => Type.String({ pattern: MOMENT_PATTERN, description });

const Time = (description: string, example: string) =>
  Type.String({ pattern: TIME_PATTERN, description, examples: [example] });
const Money = Type.Object(
  {
    amount: Type.Integer({ format: 'int64', description: "Minor units of the account's currency." }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
  },
  { additionalProperties: false },
);

export const BalancesQuery = Type.Object(
  {
    at: Type.Optional(
      Time(
        'The moment, default now: `YYYY-MM-DDTHH:MMZ` (the end of that minute: every transaction of the minute ' +
          'counts) or RFC 3339 with an offset (that instant). Not before the account was opened; a moment after ' +
          'now is read as now.',
        '2026-11-24T18:00Z',
      ),
    ),
  },
  { additionalProperties: false },
);
export type BalancesQuery = Static<typeof BalancesQuery>;

export const AccountBalances = Type.Object(
  {
    object: Type.Literal('fintech.balances'),
    account_id: Type.String({ description: 'The account, `acct_…`.' }),
    at: Moment(
      'The exact moment the balances are at, inclusive, in UTC to the millisecond: the instant asked for, the last ' +
        'millisecond of a minute form, or now (asked for none, or one after now). Asked again, it answers the same.',
    ),
    current_balance: { ...Money, description: 'The balance after its last transaction at or before `at`.' },
    available_balance: {
      ...Money,
      description: 'The current balance less what pending transfers held at that instant (made by then, not ended).',
    },
    last_transaction_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The last transaction at or before `at`, in ledger order; `null` if none.',
    }),
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
  },
  {
    $id: 'AccountBalances',
    additionalProperties: false,
    description: "An account's balances as they stood at a moment: read from an index, whatever its history.",
    examples: [
      {
        object: 'fintech.balances',
        account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
        at: '2026-11-24T18:00:59.999Z',
        current_balance: { amount: 12500, currency: 'USD' },
        available_balance: { amount: 10000, currency: 'USD' },
        last_transaction_id: 'txn_01M7Z2C4H2XK8P3Q9VJ6T5N0AC',
        livemode: false,
      },
    ],
  },
);
export type AccountBalances = Static<typeof AccountBalances>;

export const StatementQuery = Type.Object(
  {
    from: Time(
      "Start of the period, inclusive: `YYYY-MM-DDTHH:MMZ` (that minute's start) or RFC 3339 with an offset.",
      '2026-11-01T00:00Z',
    ),
    to: Time(
      'End of the period, exclusive, after `from`; one after now is read as now (so `from` = the 1st and `to` = ' +
        'the 1st of next month is this month so far); at most 366 days after `from`.',
      '2026-12-01T00:00Z',
    ),
  },
  { additionalProperties: false },
);
export type StatementQuery = Static<typeof StatementQuery>;

const Totals = (what: string) =>
  Type.Object(
    {
      count: Type.Integer({ format: 'int64', description: `How many ${what} transactions.` }),
      amount: Type.Integer({ format: 'int64', description: `Their sum, a positive number of minor units (or 0).` }),
    },
    { additionalProperties: false },
  );

export const AccountStatement = Type.Object(
  {
    object: Type.Literal('fintech.statement'),
    account_id: Type.String({ description: 'The account, `acct_…`.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217 code: the account's." }),
    from: Moment('Start of the period, inclusive: the exact moment used, in UTC to the millisecond.'),
    to: Moment(
      'End of the period, exclusive: the exact moment used, in UTC to the millisecond (now, when `to` was after ' +
        'now). Asked again with these two moments, the statement is the same.',
    ),
    opening_balance: Type.Integer({ format: 'int64', description: 'The current balance just before `from`.' }),
    closing_balance: Type.Integer({
      format: 'int64',
      description: 'The current balance just before `to`: always `opening_balance` + credits − debits.',
    }),
    credits: { ...Totals('incoming'), description: 'Money in during the period.' },
    debits: { ...Totals('outgoing'), description: 'Money out during the period.' },
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
  },
  {
    $id: 'AccountStatement',
    additionalProperties: false,
    description:
      "What moved on an account in a period [from, to): the period's transactions are its transaction list with " +
      '`created[gte]=from` and `created[lt]=to`, and their totals add up to the closing balance exactly.',
    examples: [
      {
        object: 'fintech.statement',
        account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
        currency: 'USD',
        from: '2026-11-01T00:00:00.000Z',
        to: '2026-11-24T18:03:12.345Z',
        opening_balance: 5000,
        closing_balance: 12500,
        credits: { count: 3, amount: 10000 },
        debits: { count: 1, amount: 2500 },
        livemode: false,
      },
    ],
  },
);
export type AccountStatement = Static<typeof AccountStatement>;
