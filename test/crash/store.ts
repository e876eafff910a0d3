import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

export type Backend = 'sqlite' | 'postgres';

/** What the database holds for the campaign's org, read behind the server's back. */
export interface Snapshot {
  /** Account id → its row's id, type, country and legal name. */
  accounts: Map<string, { type: string; country: string; legalName: string | null }>;
  /** Idempotency-Key → the stored response bodies (the primary key allows one; more would be a bug). */
  stored: Map<string, string[]>;
}

/** A database of the campaign's own, the means to read it, and to check its integrity and drop it. */
export interface Store {
  url: string;
  snapshot(orgId: string): Promise<Snapshot>;
  /** `PRAGMA integrity_check` on SQLite ('ok' when sound); PostgreSQL has no cheap equivalent: 'ok'. */
  integrity(): Promise<string>;
  drop(): Promise<void>;
}

interface Rows {
  accounts: { id: string; type: string; country: string; kyb_legal_name: string | null }[];
  stored: { key: string; response_body: string | null }[];
}

function snapshotOf(rows: Rows): Snapshot {
  const accounts: Snapshot['accounts'] = new Map();
  for (const row of rows.accounts) {
    accounts.set(row.id, { type: row.type, country: row.country, legalName: row.kyb_legal_name });
  }
  const stored: Snapshot['stored'] = new Map();
  for (const row of rows.stored) stored.set(row.key, [...(stored.get(row.key) ?? []), row.response_body ?? '']);
  return { accounts, stored };
}

const ACCOUNTS = 'select id, type, country, kyb_legal_name from accounts where org_id = $org';
const STORED = 'select key, response_body from idempotency_keys where org_id = $org';

function sqliteStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-crash-'));
  const path = join(dir, 'plinth.db');
  // A connection of the campaign's own, read-only so that it can never repair or hide what the server left behind,
  // and closed after each look: held open across a kill it would keep SQLite's shared memory alive, and the restarted
  // server would not recover the WAL from the file as it must after a real crash.
  const read = <T>(work: (db: DatabaseSync) => T): T => {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return {
    url: `sqlite:${path}`,
    async snapshot(orgId) {
      return read((db) =>
        snapshotOf({
          accounts: db.prepare(ACCOUNTS).all({ org: orgId }) as unknown as Rows['accounts'],
          stored: db.prepare(STORED).all({ org: orgId }) as unknown as Rows['stored'],
        }),
      );
    },
    async integrity() {
      const rows = read((db) => db.prepare('PRAGMA integrity_check').all());
      return rows.map((row) => String(Object.values(row)[0])).join('; ');
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(adminUrl: string): Promise<Store> {
  const name = `plinth_crash_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const query = async <T>(text: string, orgId: string) =>
    (await pool.query(text.replace('$org', '$1'), [orgId])).rows as T;
  return {
    url: url.toString(),
    async snapshot(orgId) {
      return snapshotOf({ accounts: await query(ACCOUNTS, orgId), stored: await query(STORED, orgId) });
    },
    integrity: async () => 'ok',
    async drop() {
      await pool.end();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

export function openStore(backend: Backend): Promise<Store> {
  if (backend === 'sqlite') return Promise.resolve(sqliteStore());
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl) throw new Error('TEST_POSTGRES_URL is not set');
  return postgresStore(adminUrl);
}
