import { apiTime } from '../../platform/kit/time.ts';
import { toAmount } from './ledger/amount.ts';
import type { Posted } from './ledger/post.ts';
import type { SourceType } from './tables.ts';
import type { TransactionRow } from './transactions.repository.ts';
import type { Transaction } from './transactions.schema.ts';

/** The transaction of one posted entry of a journal (what the journal's write reports in its events). */
export function transactionOf(
  journal: {
    id: string;
    mode: string;
    currency: string;
    description: string | null;
    created_at: string;
    source_type: SourceType;
  },
  entry: Posted,
): Transaction {
  return transactionFromRow({
    ...journal,
    id: entry.entryId,
    account_id: entry.accountId,
    amount: entry.amount,
    balance_after: entry.balanceAfter,
    journal_id: journal.id,
  });
}

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
