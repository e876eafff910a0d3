import { after, before } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { freshDatabase, type TestDatabase } from './database.ts';
import { type ServerProcess, spawnServer } from './process.ts';
import { UNLIMITED } from './server.ts';

/**
 * Two server processes on one fresh database (PostgreSQL: several writers at once), without rate limits, and a
 * handle of the test's own on the same database; stopped and dropped after the suite. Call inside a `describe`.
 */
export function useTwoProcesses(): { urls: () => string[]; database: () => Database; databaseUrl: () => string } {
  let db: TestDatabase;
  let database: Database;
  let servers: ServerProcess[];
  before(async () => {
    db = await freshDatabase();
    const env = { ...UNLIMITED, DATABASE_URL: db.url };
    servers = [await spawnServer(env), await spawnServer(env)];
    database = openDatabase(db.url);
  });
  after(async () => {
    for (const s of servers ?? []) s.child.kill('SIGTERM');
    await Promise.all((servers ?? []).map((s) => s.exited));
    await database?.close();
    await db?.drop();
  });
  return { urls: () => servers.map((s) => s.url), database: () => database, databaseUrl: () => db.url };
}
