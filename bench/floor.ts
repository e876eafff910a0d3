/**
 * `npm run bench:floor`: what SQLite alone costs for the statements of one account create, with no HTTP, no
 * Kysely and no JSON: the statements of a real create (recorded from a server in this process), replayed on the
 * same database with fresh ids, 32 creates per `BEGIN IMMEDIATE … COMMIT` as the group commit batches them, for
 * 3 s per variant. It bounds what any server on this data model can reach: the benchmark's create target is a
 * ratio to the bare node:http rate, so the floor is printed as the same ratio (bare measured in this run).
 * Then the stack's floor for a retrieve (bench/servers/fastify-floor.ts: Fastify, one log line, one prepared
 * select, nothing else) against the bare node:http GET.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { loadCreate, loadGet } from './lib/load.ts';
import { start, stop } from './lib/process.ts';
import { onWriter, recordSqlite } from './lib/record-sqlite.ts';

const recorder = recordSqlite();

const { startServer } = await import('../test/helpers/server.ts');
const server = await startServer();
const key = await server.key('floor');
const create = () =>
  fetch(`${server.url}/v1/fintech/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ type: 'business', country: 'US' }),
  }).then((r) => r.arrayBuffer());
await create(); // the key's lookup and every cache warm
recorder.start();
await create();
const recorded = recorder.stop();

const perCreate = onWriter(recorded).filter((r) => !/^(BEGIN|COMMIT)/.test(r.sql));
// The ids and the idempotency key of the recorded create; every replay gets its own.
const fresh = new Set<string>();
for (const { params } of perCreate)
  for (const p of params)
    if (typeof p === 'string' && (/^(acct|evt|req)_[0-9A-Z]{26}$/.test(p) || /^[0-9a-f-]{36}$/.test(p))) fresh.add(p);

let serial = 0;
function replay(variant: { savepoints: boolean; tempStore: 'DEFAULT' | 'MEMORY'; synchronous: 'FULL' | 'OFF' }) {
  const db = new DatabaseSync(server.databaseUrl.slice('sqlite:'.length));
  db.exec(`PRAGMA synchronous = ${variant.synchronous}`);
  db.exec(`PRAGMA temp_store = ${variant.tempStore}`);
  const statements = perCreate
    .filter((r) => variant.savepoints || !/savepoint|release/i.test(r.sql))
    .map((r) => ({ ...r, statement: r.kind === 'exec' ? null : db.prepare(r.sql) }));
  let creates = 0;
  let sequence = 0;
  let commitMs = 0;
  const started = performance.now();
  while (performance.now() - started < 3000) {
    db.exec('BEGIN IMMEDIATE');
    for (let j = 0; j < 32; j++) {
      creates++;
      const suffix = `X${String(++serial).padStart(11, '0')}`;
      for (const r of statements) {
        if (r.statement === null) {
          db.exec(r.sql);
          continue;
        }
        const params = r.params.map((p) => (typeof p === 'string' && fresh.has(p) ? p.slice(0, -12) + suffix : p));
        if (/^insert into "events"/.test(r.sql)) params[4] = sequence; // the sequence the upsert just handed out
        const out = (r.statement as StatementSync)[r.kind as 'all'](...(params as []));
        if (/event_sequences/.test(r.sql)) sequence = Number(Object.values(out[0] as object)[0]);
      }
    }
    const committing = performance.now();
    db.exec('COMMIT');
    commitMs += performance.now() - committing;
  }
  const ms = performance.now() - started;
  db.close();
  return { perSecond: (creates / ms) * 1000, micros: (ms * 1000) / creates, commitShare: commitMs / ms };
}

const ACCOUNT_PATH = '/v1/fintech/accounts/acct_01KAQX7ZJ0Q9W3H6T8V2N4M5PB';
const bare = await start({ args: ['bench/servers/bare-http.ts'], env: {}, logFile: '/dev/null' });
const ceiling = (await loadCreate(bare.port, null)).rps;
const getCeiling = (await loadGet(bare.port, ACCOUNT_PATH, null)).rps;
await stop(bare);
const fastify = await start({
  args: ['bench/servers/fastify-floor.ts'],
  env: {},
  logFile: join(tmpdir(), `plinth-fastify-floor-${process.pid}.log`),
  readyPath: '/healthz',
});
const stackFloor = (await loadGet(fastify.port, ACCOUNT_PATH, null)).rps;
await stop(fastify);
const lines = [
  `Statements per create (outside BEGIN/COMMIT): ${perCreate.length}; bare node:http POST ${ceiling.toFixed(0)} req/s.`,
  '',
  '| savepoints | temp_store | synchronous | creates/s | µs per create | COMMIT share | vs bare POST |',
  '|---|---|---|---|---|---|---|',
];
for (const variant of [
  { savepoints: true, tempStore: 'DEFAULT', synchronous: 'FULL' },
  { savepoints: true, tempStore: 'MEMORY', synchronous: 'FULL' },
  { savepoints: false, tempStore: 'MEMORY', synchronous: 'FULL' },
  { savepoints: true, tempStore: 'MEMORY', synchronous: 'OFF' },
] as const) {
  const r = replay(variant);
  lines.push(
    `| ${variant.savepoints ? 'yes' : 'no'} | ${variant.tempStore} | ${variant.synchronous} | ${r.perSecond.toFixed(0)} | ` +
      `${r.micros.toFixed(1)} | ${(r.commitShare * 100).toFixed(0)}% | ${(r.perSecond / ceiling).toFixed(2)}× |`,
  );
}
lines.push(
  '',
  `Retrieve: bare node:http GET ${getCeiling.toFixed(0)} req/s; Fastify + one log line + one prepared select ` +
    `${stackFloor.toFixed(0)} req/s = ${(stackFloor / getCeiling).toFixed(2)}× bare.`,
);
await server.close();
process.stdout.write(`${lines.join('\n')}\n`);
