import { parseMetadata } from '../../modules/metadata/index.ts';
import { apiTime } from '../../platform/kit/time.ts';
import { toAmount } from './ledger/amount.ts';
import type { TransferReversal } from './reversals.schema.ts';
import type { TransferReversalsTable } from './tables.ts';

export function reversalFromRow(row: TransferReversalsTable): TransferReversal {
  return {
    id: row.id,
    object: 'fintech.transfer_reversal',
    transfer_id: row.transfer_id,
    amount: toAmount(row.amount),
    currency: row.currency,
    description: row.description,
    metadata: parseMetadata(row.metadata),
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
