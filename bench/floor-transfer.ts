/**
 * Experiment: what SQLite alone costs for the statements of one transfer and of one create.
 *
 *   npm run bench:floor-transfer -- record <dir>                    a real create and transfer, recorded
 *   npm run bench:floor-transfer -- replay <dir> <ddl file> <load> <batches>
 *
 * `record` starts a server in this process, records the statements of one create and one transfer, and keeps the
 * database. `replay` copies it, applies the DDL (a schema variant), and replays the load's statements `BATCH` writes
 * per `BEGIN IMMEDIATE … COMMIT`, fresh ids each time; it prints µs and WAL pages per write. Run it under callgrind
 * with two batch counts and subtract for instructions per write. Knobs, for experiments: SKIP=<regex> leaves out the
 * statements it matches (what one statement costs), SYNC=OFF takes the fsync out of COMMIT, WARMUP=<batches> runs
 * that many batches first.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { newId } from '../src/platform/kit/ids.ts';
import { onWriter, type Recorded, recordSqlite } from './lib/record-sqlite.ts';

const BATCH = 21;
const [mode, dir] = process.argv.slice(2) as [string, string];

async function record(): Promise<void> {
  const recorder = recordSqlite();
  const { startServer } = await import('../test/helpers/server.ts');
  const server = await startServer();
  const key = await server.key('floor');
  const post = (path: string, body: object) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ id: string }>);
  const createBody = { type: 'business', country: 'US' };
  const a = await post('/v1/fintech/accounts', createBody);
  const b = await post('/v1/fintech/accounts', createBody);
  await post(`/v1/sandbox/fintech/accounts/${a.id}/deposits`, { amount: 1_000_000_000_000 });
  const transferBody = { from_account_id: a.id, to_account_id: b.id, amount: 1, currency: 'USD' };
  await post('/v1/fintech/transfers', transferBody);
  const take = async (action: () => Promise<unknown>) => {
    recorder.start();
    await action();
    const recorded = recorder.stop();
    // BEGIN/COMMIT are the batch's; the delivery worker's polls and the readers' snapshots are not the write's.
    return onWriter(recorded).filter((r) => !/^(BEGIN|COMMIT)/.test(r.sql) && !/from "webhook_deliveries"/.test(r.sql));
  };
  const create = await take(() => post('/v1/fintech/accounts', createBody));
  const transfer = await take(() => post('/v1/fintech/transfers', transferBody));
  mkdirSync(dir, { recursive: true });
  new DatabaseSync(server.databaseUrl.slice('sqlite:'.length)).exec(`VACUUM INTO '${join(dir, 'base.db')}'`);
  writeFileSync(join(dir, 'recorded.json'), JSON.stringify({ create, transfer, keep: [a.id, b.id] }));
  await server.close();
}

const FRESH = /^((acct|evt|req|tr|txn)_[0-9A-Z]{26}|[0-9a-f-]{36})$/;
const columnsOf = (sql: string) => {
  const m = /^insert into "\w+" \(([^)]*)\)/.exec(sql);
  return m ? m[1]!.split(', ').map((c) => c.replaceAll('"', '')) : null;
};

function replay(ddlFile: string, load: 'create' | 'transfer', batches: number): void {
  const { keep, ...loads } = JSON.parse(readFileSync(join(dir, 'recorded.json'), 'utf8')) as Record<
    'create' | 'transfer',
    Recorded[]
  > & { keep: string[] };
  const file = join(dir, `replay-${process.pid}.db`);
  copyFileSync(join(dir, 'base.db'), file);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA foreign_keys = OFF');
  const ddl = readFileSync(ddlFile, 'utf8');
  if (ddl.trim() !== '') db.exec(ddl);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${process.env.SYNC ?? 'FULL'}`);
  db.exec('PRAGMA temp_store = MEMORY');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA wal_autocheckpoint = 0');
  const skip = process.env.SKIP ? new RegExp(process.env.SKIP) : null;
  const statements = loads[load]
    .filter((r) => skip === null || !skip.test(r.sql))
    .map((r) => ({
      ...r,
      statement: r.kind === 'exec' ? null : db.prepare(r.sql),
      columns: columnsOf(r.sql),
    }));
  const kept = new Set(keep);
  let sequence = 0;
  const started = performance.now();
  const WARMUP = Number(process.env.WARMUP ?? 0);
  for (let batch = 0; batch < WARMUP + batches; batch++) {
    db.exec('BEGIN IMMEDIATE');
    for (let j = 0; j < BATCH; j++) {
      const renamed = new Map<string, string>();
      const rename = (id: string) => {
        let next = renamed.get(id);
        if (next === undefined) {
          next = id.includes('_') ? newId(id.slice(0, id.indexOf('_'))) : randomUUID();
          renamed.set(id, next);
        }
        return next;
      };
      const lines: { balance: number; entry_count: number }[] = [];
      for (const r of statements) {
        if (r.statement === null) {
          db.exec(r.sql);
          continue;
        }
        const params = r.params.map((p) => (typeof p === 'string' && FRESH.test(p) && !kept.has(p) ? rename(p) : p));
        if (r.columns !== null) {
          const width = r.columns.length;
          const rows = params.length / width;
          for (let i = 0; i < rows; i++) {
            const at = (c: string) => i * width + r.columns!.indexOf(c);
            if (/^insert into "events"/.test(r.sql)) params[at('sequence')] = sequence - rows + 1 + i;
            if (/^insert into "ledger_entries"/.test(r.sql)) {
              params[at('balance_after')] = lines[i]!.balance;
              params[at('account_seq')] = lines[i]!.entry_count;
            }
          }
        }
        const out = (r.statement as StatementSync)[r.kind as 'all'](...(params as [])) as Record<string, number>[];
        if (/event_sequences/.test(r.sql)) sequence = Number(Object.values(out[0] as object)[0]);
        if (/^update "ledger_accounts"/.test(r.sql))
          lines.push(...(out as unknown as { balance: number; entry_count: number }[]));
      }
    }
    db.exec('COMMIT');
  }
  const ms = performance.now() - started;
  const writes = (WARMUP + batches) * BATCH;
  const frames = (statSync(`${file}-wal`).size - 32) / (4096 + 24);
  process.stdout.write(
    `${load}: ${((ms * 1000) / writes).toFixed(1)} µs, ${(frames / writes).toFixed(2)} pages per write\n`,
  );
  db.close();
}

if (mode === 'record') await record();
else replay(process.argv[4]!, process.argv[5] as 'create' | 'transfer', Number(process.argv[6]));
