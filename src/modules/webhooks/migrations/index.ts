import type { Migration } from 'kysely';
import * as m20261122T1400 from './2026-11-22T1400_delivery_claim_index.ts';
import * as m20261125T1100 from './2026-11-25T1100_webhook_deliveries_pending_idx.ts';

/**
 * The webhooks' migrations, by the names every database already recorded: they were the platform's until
 * the split by role (issue 38) and keep their names, so that no database runs them twice. Applied in name order
 * with every other module's.
 */
export const WEBHOOKS_MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T1400_delivery_claim_index': m20261122T1400,
  '2026-11-25T1100_webhook_deliveries_pending_idx': m20261125T1100,
};
