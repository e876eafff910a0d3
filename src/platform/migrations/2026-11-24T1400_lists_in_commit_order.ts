import type { Kysely } from 'kysely';
import { addCommitOrder, dropCommitOrder } from '../../db/commit-order.ts';

// Keys, endpoints and deliveries listed in commit order on PostgreSQL (see db/commit-order.ts).
const TABLES = {
  api_keys: [
    {
      name: 'api_keys_org_mode_tx_idx',
      columns: ['org_id', 'mode', 'tx', 'id'],
      replaces: 'api_keys_org_idx',
      replacedColumns: ['org_id', 'id'],
    },
  ],
  webhook_endpoints: [
    {
      name: 'webhook_endpoints_org_tx_idx',
      columns: ['org_id', 'mode', 'tx', 'id'],
      replaces: 'webhook_endpoints_org_idx',
      replacedColumns: ['org_id', 'mode', 'id'],
    },
  ],
  webhook_deliveries: [
    {
      name: 'webhook_deliveries_endpoint_tx_idx',
      columns: ['endpoint_id', 'tx', 'id'],
      replaces: 'webhook_deliveries_endpoint_idx',
      replacedColumns: ['endpoint_id', 'id'],
    },
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, indexes] of Object.entries(TABLES)) await addCommitOrder(db, table, indexes);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, indexes] of Object.entries(TABLES)) await dropCommitOrder(db, table, indexes);
}
