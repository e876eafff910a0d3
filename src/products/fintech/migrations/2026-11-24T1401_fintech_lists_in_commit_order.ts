import type { Kysely } from 'kysely';
import { addCommitOrder, dropCommitOrder } from '../../../db/commit-order.ts';

// Accounts and transfers listed in commit order on PostgreSQL (see db/commit-order.ts).
const TABLES = {
  accounts: [
    {
      name: 'accounts_org_mode_tx_idx',
      columns: ['org_id', 'mode', 'tx', 'id'],
      replaces: 'accounts_org_mode_id_idx',
      replacedColumns: ['org_id', 'mode', 'id'],
    },
  ],
  transfers: [
    {
      name: 'transfers_org_mode_tx_idx',
      columns: ['org_id', 'mode', 'tx', 'id'],
      replaces: 'transfers_org_mode_id_idx',
      replacedColumns: ['org_id', 'mode', 'id'],
    },
    {
      name: 'transfers_from_tx_idx',
      columns: ['from_account_id', 'tx', 'id'],
      replaces: 'transfers_from_idx',
      replacedColumns: ['from_account_id', 'id'],
    },
    {
      name: 'transfers_to_tx_idx',
      columns: ['to_account_id', 'tx', 'id'],
      replaces: 'transfers_to_idx',
      replacedColumns: ['to_account_id', 'id'],
    },
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, indexes] of Object.entries(TABLES)) await addCommitOrder(db, table, indexes);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, indexes] of Object.entries(TABLES)) await dropCommitOrder(db, table, indexes);
}
