import { Migrator, type Migration } from 'kysely';
import type { Db } from './database.ts';
import * as m20261121T1200 from '../platform/migrations/2026-11-21T1200_orgs_keys_accounts.ts';
import * as m20261121T1300 from '../platform/migrations/2026-11-21T1300_org_display_name.ts';
import * as m20261121T1400 from '../platform/migrations/2026-11-21T1400_idempotency_keys.ts';

/** Listed explicitly (not read from the folder) so that the set of migrations is visible and type-checked. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T1200_orgs_keys_accounts': m20261121T1200,
  '2026-11-21T1300_org_display_name': m20261121T1300,
  '2026-11-21T1400_idempotency_keys': m20261121T1400,
};

/** Applies pending migrations; running it twice is harmless. Returns the names it applied. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
