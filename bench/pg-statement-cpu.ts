/**
 * `node bench/pg-statement-cpu.ts`: where PostgreSQL's CPU per write goes, statement by statement (issue 44). A scratch
 * database with `log_statement_stats = on` (PostgreSQL logs each protocol message's getrusage to its server log,
 * BENCH_PG_LOG, default Debian's /var/log/postgresql/postgresql-15-main.log: needs read access), one Plinth server,
 * then COUNT keyed creates and COUNT keyed transfers one at a time; the log between is summed by statement and by
 * message (parse, bind, execute, simple query) and divided by COUNT. One request at a time: no contention inside
 * PostgreSQL, but the machine's other work still slows what getrusage counts. The scratch database is dropped.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createOne, depositInto, type Plinth, startPlinth } from './lib/plinth.ts';
import { postgresServer, scratchDatabase } from './lib/postgres.ts';
import { stop } from './lib/process.ts';

const LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';
const COUNT = Number(process.env.COUNT ?? 100);

function readFrom(offset: number): string {
  const size = statSync(LOG).size;
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(LOG, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** µs of CPU per statement text (and per message kind), summed over the entries of database `db`. */
function summarise(text: string, db: string, per: number): string[] {
  const entries = text.split(/\n(?=\d{4}-\d\d-\d\d )/);
  const byStatement = new Map<string, number>();
  const byKind = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const kind = entry.match(new RegExp(`@${db} LOG:  (\\w+(?: \\w+)?) STATISTICS`))?.[1];
    if (kind === undefined) continue;
    // The entry's DETAIL (the usage) and STATEMENT are log lines of their own, right after it.
    const usage = (entries[i + 1] ?? '').match(/!\t([\d.]+) s user, ([\d.]+) s system/);
    if (usage === null) continue;
    const us = (Number(usage[1]) + Number(usage[2])) * 1e6;
    const statement = (entries[i + 2] ?? '').match(/STATEMENT: {2}([\s\S]*)/)?.[1] ?? '?';
    const key = `${kind.padEnd(15)} ${statement.replace(/\s+/g, ' ').slice(0, 110)}`;
    byStatement.set(key, (byStatement.get(key) ?? 0) + us);
    byKind.set(kind, (byKind.get(kind) ?? 0) + us);
    total += us;
  }
  const lines = [`  total ${(total / per).toFixed(0)} µs per request`];
  for (const [kind, us] of [...byKind].sort((a, b) => b[1] - a[1]))
    lines.push(`  ${kind}: ${(us / per).toFixed(0)} µs`);
  for (const [key, us] of [...byStatement].sort((a, b) => b[1] - a[1]).slice(0, 24))
    lines.push(`  ${(us / per).toFixed(1).padStart(6)}  ${key}`);
  return lines;
}

const serverUrl = await postgresServer();
if (serverUrl === null) throw new Error('no PostgreSQL answers');
const dir = mkdtempSync(join(tmpdir(), 'plinth-pg-stmt-cpu-'));
const scratch = await scratchDatabase(serverUrl, `plinth_pgcpu_${process.pid}`);
let server: Plinth | undefined;
try {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`alter database ${scratch.name} set log_statement_stats = on`);
  await admin.end();
  server = await startPlinth({ databaseUrl: scratch.url, dir, name: 'pg-stmt-cpu', env: { DATABASE_POOL_SIZE: '8' } });
  const s = server;
  const [from, to] = [await createOne(s), await createOne(s)];
  await depositInto(s, from, 1_000_000_000);
  const post = async (path: string, body: object) => {
    const response = await fetch(`http://127.0.0.1:${s.port}${path}`, {
      method: 'POST',
      headers: {
        authorization: s.authorization,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    await response.text();
  };
  const kinds: [string, () => Promise<void>][] = [
    ['create', () => post('/v1/fintech/accounts', { type: 'business', country: 'US' })],
    [
      'transfer',
      () => post('/v1/fintech/transfers', { from_account_id: from, to_account_id: to, amount: 1, currency: 'USD' }),
    ],
  ];
  for (const [kind, send] of kinds) {
    for (let i = 0; i < 20; i++) await send();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const offset = statSync(LOG).size;
    for (let i = 0; i < COUNT; i++) await send();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    process.stdout.write(
      `${kind} (${COUNT}, one at a time; the sequencer's passes and the request log's batches included):\n`,
    );
    process.stdout.write(`${summarise(readFrom(offset), scratch.name, COUNT).join('\n')}\n`);
  }
} finally {
  if (server !== undefined) await stop(server);
  await scratch.drop();
  rmSync(dir, { recursive: true, force: true });
}
