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
  /** The org's events: how many, how many still without a number, and the numbers held by more than one. */
  events: { total: number; unnumbered: number; duplicateNumbers: string[] };
  /** The org's transfer reversals. */
  reversals: number;
  /** The org's sandbox clock (offset and the target of an advance under way; none before its first), and its payments' next steps. */
  clock: { offsetMs: number; targetMs: number | null } | null;
  due: { id: string; dueAt: string; action: string }[];
}

/** A database of the campaign's own, the means to read it, and to check its integrity and drop it. */
export interface Store {
  url: string;
  snapshot(orgId: string): Promise<Snapshot>;
  /**
   * 'ok' when sound. SQLite: `PRAGMA integrity_check`. PostgreSQL: amcheck's `bt_index_check` with `heapallindexed`
   * on every B-tree index of the schema (every row indexed, every index entry well ordered); null where the amcheck
   * extension is not installed.
   */
  integrity(): Promise<string | null>;
  /** What `integrity()` checks, for the report. */
  integrityName: string;
  /** Rows of any query of the caller's, `$org` standing for the org's id. */
  rows<T>(text: string, orgId: string): Promise<T[]>;
  drop(): Promise<void>;
}

interface Rows {
  accounts: { id: string; type: string; country: string; kyb_legal_name: string | null }[];
  stored: { key: string; response_body: string | null }[];
  events: { mode: string; sequence: number | string | null }[];
  reversals: { n: number | string }[];
  clock: { offset_ms: number | string; target_ms: number | string | null }[];
  due: { id: string; due_at: string; due_action: string }[];
}

function snapshotOf(rows: Rows): Snapshot {
  const accounts: Snapshot['accounts'] = new Map();
  for (const row of rows.accounts) {
    accounts.set(row.id, { type: row.type, country: row.country, legalName: row.kyb_legal_name });
  }
  const stored: Snapshot['stored'] = new Map();
  for (const row of rows.stored) stored.set(row.key, [...(stored.get(row.key) ?? []), row.response_body ?? '']);
  const numbers = new Map<string, number>();
  for (const { mode, sequence } of rows.events)
    if (sequence !== null) numbers.set(`${mode} ${sequence}`, (numbers.get(`${mode} ${sequence}`) ?? 0) + 1);
  const events = {
    total: rows.events.length,
    unnumbered: rows.events.filter((e) => e.sequence === null).length,
    duplicateNumbers: [...numbers].filter(([, n]) => n > 1).map(([number]) => number),
  };
  const clock = rows.clock[0];
  return {
    accounts,
    stored,
    events,
    reversals: Number(rows.reversals[0]?.n ?? 0),
    clock:
      clock === undefined
        ? null
        : { offsetMs: Number(clock.offset_ms), targetMs: clock.target_ms === null ? null : Number(clock.target_ms) },
    due: rows.due.map((row) => ({ id: row.id, dueAt: row.due_at, action: row.due_action })),
  };
}

const ACCOUNTS = 'select id, type, country, kyb_legal_name from accounts where org_id = $org';
const STORED = 'select key, response_body from idempotency_keys where org_id = $org';
const EVENTS = 'select mode, sequence from events where org_id = $org';
const REVERSALS = 'select count(*) as n from transfer_reversals where org_id = $org';
const CLOCK = 'select offset_ms, target_ms from sandbox_clocks where org_id = $org';
const DUE = 'select id, due_at, due_action from payments where org_id = $org and due_at is not null';

// Every B-tree index of the server's tables (primary keys, the idempotency scope's unique index, the others).
const BTREE_CHECK = `select bt_index_check(c.oid, true) from pg_index i join pg_class c on c.oid = i.indexrelid
  join pg_am am on am.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
  where am.amname = 'btree' and n.nspname = current_schema()`;

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
          events: db.prepare(EVENTS).all({ org: orgId }) as unknown as Rows['events'],
          reversals: db.prepare(REVERSALS).all({ org: orgId }) as unknown as Rows['reversals'],
          clock: db.prepare(CLOCK).all({ org: orgId }) as unknown as Rows['clock'],
          due: db.prepare(DUE).all({ org: orgId }) as unknown as Rows['due'],
        }),
      );
    },
    async rows<T>(text: string, orgId: string) {
      return read((db) => db.prepare(text).all({ org: orgId })) as T[];
    },
    integrityName: 'PRAGMA integrity_check',
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
  const amcheck = await pool.query('create extension if not exists amcheck').then(
    () => true,
    () => false,
  );
  const query = async <T>(text: string, orgId: string) =>
    (await pool.query(text.replace('$org', '$1'), [orgId])).rows as T;
  return {
    url: url.toString(),
    async snapshot(orgId) {
      return snapshotOf({
        accounts: await query(ACCOUNTS, orgId),
        stored: await query(STORED, orgId),
        events: await query(EVENTS, orgId),
        reversals: await query(REVERSALS, orgId),
        clock: await query(CLOCK, orgId),
        due: await query(DUE, orgId),
      });
    },
    rows: <T>(text: string, orgId: string) => query<T[]>(text, orgId),
    integrityName: 'amcheck bt_index_check(heapallindexed)',
    async integrity() {
      if (!amcheck) return null;
      try {
        await pool.query(BTREE_CHECK);
        return 'ok';
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
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
