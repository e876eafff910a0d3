import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/open.ts';
import { ALL_MIGRATIONS, registerModules } from '../modules.ts';

/**
 * Runs `command` with the configuration and the database, migrated; closes it after. Only the commands that need
 * them open them: `--help` and `listen` run without a DATABASE_URL.
 */
export async function withDatabase<T>(command: (database: Database, config: Config) => Promise<T>): Promise<T> {
  registerModules();
  const config = loadConfig();
  const database = openDatabase(config.DATABASE_URL);
  try {
    await database.migrate(ALL_MIGRATIONS);
    return await command(database, config);
  } finally {
    await database.close();
  }
}
