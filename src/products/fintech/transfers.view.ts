import { apiTime } from '../../platform/kit/time.ts';
import { toAmount } from './ledger/amount.ts';
import type { TransfersTable } from './tables.ts';
import type { Transfer } from './transfers.schema.ts';

export function transferFromRow(row: TransfersTable): Transfer {
  return {
    id: row.id,
    object: 'fintech.transfer',
    from_account_id: row.from_account_id,
    to_account_id: row.to_account_id,
    amount: toAmount(row.amount),
    currency: row.currency,
    description: row.description,
    status: row.status,
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
