import { type Static, Type } from 'typebox';
import { CreatedFilter } from '../../platform/http/created-filter.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { IdOf } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { Amount, Description } from './transfers.schema.ts';

const EXAMPLE_TRANSACTION = {
  id: 'txn_01M7Z2C4H3B9Y6W2R7K1D8F4QE',
  object: 'fintech.transaction',
  account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
  amount: -2500,
  currency: 'USD',
  balance_after: 7500,
  description: 'Invoice 2026-114',
  source: { type: 'transfer', id: 'tr_01M7Z2C4H2XK8P3Q9VJ6T5N0AB' },
  livemode: false,
  created_at: '2026-11-22T10:15Z',
};

export const Transaction = Type.Object(
  {
    id: Type.String({ pattern: idPattern('txn'), description: '`txn_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.transaction'),
    account_id: Type.String({ description: 'The account whose balance it changed.' }),
    amount: Type.Integer({
      format: 'int64',
      description: 'Signed minor units: negative is money out, positive money in.',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
    balance_after: Type.Integer({
      format: 'int64',
      description: "The account's balance right after it: in ledger order, the previous `balance_after` + `amount`.",
    }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'From its source; `null` if none.' }),
    source: Type.Object(
      {
        type: Type.String({
          description: '`transfer`, `transfer_reversal`, `sandbox_deposit` or `sandbox_withdrawal`. Open enum.',
          examples: ['transfer'],
        }),
        id: Type.String({ description: 'The id of what caused it: `tr_…`, `trr_…`, `sdep_…` or `swd_…`.' }),
      },
      { additionalProperties: false, description: 'What moved the money.' },
    ),
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
    created_at: Type.String({ pattern: API_TIME_PATTERN, description: 'Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.' }),
  },
  {
    $id: 'Transaction',
    additionalProperties: false,
    description: 'One change to one account’s balance. Transactions never change; a correction is a new transfer.',
    examples: [EXAMPLE_TRANSACTION],
  },
);
export type Transaction = Static<typeof Transaction>;

export const TransactionIdParams = Type.Object(
  { id: IdOf('txn', { description: 'A transaction id, `txn_…`.' }) },
  { additionalProperties: false },
);

export const TransactionListQuery = Type.Object(
  { ...ListQuery('transaction', 'txn').properties, created: Type.Optional(CreatedFilter) },
  { additionalProperties: false },
);
export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionList = ListPage<Transaction>(
  'TransactionList',
  'Transaction',
  'transactions',
  [EXAMPLE_TRANSACTION],
  false,
);
export type TransactionList = Static<typeof TransactionList>;

export const SimulationBody = Type.Object(
  { amount: Amount, description: Type.Optional(Description) },
  { additionalProperties: false, examples: [{ amount: 10000, description: 'Sandbox top-up' }] },
);
export type SimulationBody = Static<typeof SimulationBody>;
