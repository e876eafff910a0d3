import type { Trx } from '../../db/database.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { TransfersTable } from './tables.ts';

// Reads of transfers are the owner-scoped ones every kind shares (db/owned.ts: findOwned, pageOwned).

const insertRow = preparedInsert('transfers', {
  id: true,
  org_id: true,
  mode: true,
  from_account_id: true,
  to_account_id: true,
  amount: true,
  currency: true,
  description: true,
  status: true,
  pending: true,
  posted_amount: true,
  expires_at: true,
  resolved_at: true,
  amount_reversed: true,
  metadata: true,
  created_at: true,
  payment_id: true,
});

export function insertTransfer(trx: Trx, row: TransfersTable): void {
  insertRow(trx, row);
}
