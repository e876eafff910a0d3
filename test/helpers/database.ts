import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Migration } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { ALL_MIGRATIONS } from '../../src/modules.ts';

/**
 * The whole suite runs once per backend: `scripts/test.ts` sets PLINTH_TEST_BACKEND=postgres (with
 * TEST_POSTGRES_URL) for the second run. Every test server gets a database of its own.
 */
export const BACKEND: 'sqlite' | 'postgres' = process.env.PLINTH_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** PostgreSQL deployments must set SECRETS_KEY; every server and CLI the PostgreSQL pass starts inherits this one. */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
if (BACKEND === 'postgres') process.env.SECRETS_KEY ??= TEST_SECRETS_KEY;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function freshDatabase(): Promise<TestDatabase> {
  if (BACKEND === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-test-'));
    return { url: `sqlite:${join(dir, 'plinth.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `plinth_t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(process.env.TEST_POSTGRES_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** Reason to skip a test that needs several server processes: that deployment is PostgreSQL's. */
export const MULTI_PROCESS_SKIP =
  BACKEND === 'postgres'
    ? false
    : 'several server processes need PostgreSQL (SQLite mode is one process); runs in the PostgreSQL pass';

/** Applies every migration named before `name` (in name order, as start-up does): a database from before it. */
export async function migrateBefore(database: Database, name: string): Promise<void> {
  const migrations = Object.entries<Migration>(Object.assign({}, ...ALL_MIGRATIONS));
  if (!migrations.some(([each]) => each === name)) throw new Error(`no migration named ${name}`);
  await database.migrate([Object.fromEntries(migrations.filter(([each]) => each < name))]);
}
