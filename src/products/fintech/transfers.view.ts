import { parseMetadata } from '../../modules/metadata/index.ts';
import { apiTime } from '../../platform/kit/time.ts';
import { toAmount } from './ledger/amount.ts';
import type { TransfersTable } from './tables.ts';
import type { Transfer } from './transfers.schema.ts';

export function transferFromRow(row: TransfersTable): Transfer {
  const posted = row.posted_amount === null ? null : toAmount(row.posted_amount);
  const reversed = toAmount(row.amount_reversed);
  return {
    id: row.id,
    object: 'fintech.transfer',
    from_account_id: row.from_account_id,
    to_account_id: row.to_account_id,
    amount: toAmount(row.amount),
    currency: row.currency,
    description: row.description,
    status: row.status,
    pending: row.pending === 1,
    posted_amount: posted,
    expires_at: row.expires_at === null ? null : apiTime(row.expires_at),
    resolved_at: row.resolved_at === null ? null : apiTime(row.resolved_at),
    amount_reversed: reversed,
    reversed: posted !== null && posted > 0 && reversed === posted,
    metadata: parseMetadata(row.metadata),
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
