import { type Migration, Migrator } from 'kysely';
import type { Db } from './database.ts';

/**
 * Applies the pending ones of `sets` (the core's and each module's migrations, see src/modules.ts);
 * names are timestamps, so every module's migrations interleave in the order they were written. Running it
 * twice is harmless. Returns the names it applied.
 */
export async function migrateToLatest(db: Db, sets: Record<string, Migration>[]): Promise<string[]> {
  const migrations = Object.assign({}, ...sets) as Record<string, Migration>;
  // Two modules with a migration of the same name would silently keep only one of them.
  const count = sets.reduce((n, set) => n + Object.keys(set).length, 0);
  if (Object.keys(migrations).length !== count) throw new Error('two migrations share a name: names must be unique');
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
