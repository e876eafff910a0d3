/**
 * `node bench/seed.ts <sqlite file> [accounts]`: adds existing accounts (1,000,000 by default) to a migrated Plinth
 * SQLite database, quickly: a direct bulk insert with the columns of src/products/fintech/tables.ts and ids from the
 * same helper (time-sortable, spread over the last 30 days so new accounts land after them), over 1,000 orgs, in
 * transactions of 100,000 rows with the journal in memory and no fsync (a seed, not a write to keep); the
 * database is back in WAL mode when it ends. Prints how long it took.
 */
import { DatabaseSync } from 'node:sqlite';
import { newId } from '../src/platform/kit/ids.ts';

const ORGS = 1000;
const CHUNK = 100_000;
const SPAN_MS = 30 * 24 * 3_600_000;

export function seed(path: string, accounts: number): { seconds: number } {
  const started = performance.now();
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144');
  const first = Date.now() - SPAN_MS;
  const insertOrg = db.prepare('insert into orgs (id, name, created_at) values (?, ?, ?)');
  const orgs: string[] = [];
  db.exec('BEGIN');
  for (let i = 0; i < ORGS; i++) {
    const id = newId('org', first - ORGS + i);
    orgs.push(id);
    insertOrg.run(id, `seed-${i}`, new Date(first).toISOString());
  }
  db.exec('COMMIT');
  const insert = db.prepare(
    `insert into accounts (id, org_id, mode, type, country, currency, status, kyb_legal_name, kyb_ein, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Every account has its ledger account (balance 0, no entries: a sound ledger for `cli ledger verify`).
  const insertLedger = db.prepare(
    `insert into ledger_accounts (id, org_id, mode, currency, kind, balance, entry_count, created_at)
       values (?, ?, ?, 'USD', 'customer', 0, 0, ?)`,
  );
  for (let done = 0; done < accounts; ) {
    db.exec('BEGIN');
    for (const end = Math.min(accounts, done + CHUNK); done < end; done++) {
      const ms = first + Math.floor((done / accounts) * SPAN_MS);
      const kyb = done % 10 === 0;
      const [id, org, mode, at] = [
        newId('acct', ms),
        orgs[done % ORGS]!,
        done % 4 === 0 ? 'live' : 'sandbox',
        new Date(ms).toISOString(),
      ];
      insert.run(
        id,
        org,
        mode,
        'business',
        'US',
        'USD',
        'active',
        kyb ? `Seed Company ${done} Inc.` : null,
        kyb ? '12-3456789' : null,
        at,
      );
      insertLedger.run(id, org, mode, at);
    }
    db.exec('COMMIT');
  }
  db.exec('PRAGMA journal_mode = WAL');
  db.close();
  return { seconds: (performance.now() - started) / 1000 };
}

if (import.meta.main) {
  const [path, count] = process.argv.slice(2);
  if (!path) throw new Error('usage: node bench/seed.ts <sqlite file> [accounts]');
  const { seconds } = seed(path, Number(count ?? 1_000_000));
  process.stdout.write(`seeded ${Number(count ?? 1_000_000)} accounts in ${seconds.toFixed(1)} s\n`);
}
