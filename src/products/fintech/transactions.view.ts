import { apiTime } from '../../platform/kit/time.ts';
import { toAmount } from './ledger/amount.ts';
import type { TransactionRow } from './transactions.repository.ts';
import type { Transaction } from './transactions.schema.ts';

export function transactionFromRow(row: TransactionRow): Transaction {
  return {
    id: row.id,
    object: 'fintech.transaction',
    account_id: row.account_id,
    amount: toAmount(row.amount),
    currency: row.currency,
    balance_after: toAmount(row.balance_after),
    description: row.description,
    source: { type: row.source_type, id: row.journal_id },
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
