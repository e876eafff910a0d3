/**
 * The floor for Plinth's create on SQLite (issue 22): a bare node:http server that parses the same JSON body and runs
 * the statements of one real create in Plinth's own group commit (src/db/sqlite/group-commit.ts: writes that arrive while
 * a batch commits share the next `BEGIN IMMEDIATE … COMMIT`, each in its savepoint), on a connection set up as
 * Plinth's writer (WAL, synchronous=FULL, temp_store=MEMORY), answering after the COMMIT. No routing, validation,
 * authentication, Kysely or logging: the ceiling this design reaches on this machine, which Plinth's create is
 * measured against.
 *
 * At start-up it runs Plinth in this process on a fresh database, records the statements of one create (with a fresh
 * Idempotency-Key, as the load sends), closes Plinth, and replays those statements on the same file for every
 * request, with fresh ids and the event's number drawn as the recorded create drew it.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { groupCommit } from '../../src/db/sqlite/group-commit.ts';
import { SqliteTransaction } from '../../src/db/sqlite/sqlite-transaction.ts';
import { type Recorded, recordSqlite } from '../lib/record-sqlite.ts';

const recorder = recordSqlite();
const { startServer } = await import('../../test/helpers/server.ts');
const plinth = await startServer();
const key = await plinth.key('floor');
const create = () =>
  fetch(`${plinth.url}/v1/fintech/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ type: 'business', country: 'US' }),
  }).then((r) => r.text());
await create(); // the key's lookup and every cache warm
recorder.start();
const answer = JSON.parse(await create()) as Record<string, unknown>;
const recorded = recorder.stop();
recorder.restore();
await plinth.app.close();
await plinth.database.close();
const path = plinth.databaseUrl.slice('sqlite:'.length);

// The create's own statements: those on the writer between its BEGIN IMMEDIATE and COMMIT, less the savepoint the
// group commit adds (others recorded meanwhile ran on other connections: a reader taking its snapshot before the
// COMMIT, the webhook workers' polls).
const begin = recorded.findIndex((r) => r.sql === 'BEGIN IMMEDIATE');
const writer = recorded[begin]?.connection;
const end = recorded.findIndex((r, i) => i > begin && r.connection === writer && r.sql === 'COMMIT');
const statements = recorded
  .slice(begin + 1, end)
  .filter((r) => r.connection === writer && !/^(SAVEPOINT|RELEASE)/.test(r.sql));
if (begin < 0 || end < 0 || statements.length === 0) throw new Error('sqlite-floor: no create was recorded');

// Where each request needs its own value: the ids the create minted and its Idempotency-Key; the event's number (in
// the event and in its link of the hash chain, whose hash stays the recorded one: the floor does no hashing).
const MINTED = /^(?!org_)[a-z]+_[0-9A-Z]{26}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const minted = [
  ...new Set(statements.flatMap((r) => r.params.filter((p): p is string => typeof p === 'string' && MINTED.test(p)))),
];
type Slot = { constant: unknown } | { minted: number } | { sequence: true };
const sequenceColumn = (r: Recorded) => {
  const columns = /^insert into "(?:events|event_chain)" \(([^)]*)\)/.exec(r.sql)?.[1]?.split(', ');
  return columns === undefined ? -1 : columns.indexOf('"sequence"');
};

const db = new DatabaseSync(path);
for (const pragma of ['journal_mode = WAL', 'synchronous = FULL', 'busy_timeout = 5000', 'foreign_keys = ON'])
  db.exec(`PRAGMA ${pragma}`);
db.exec('PRAGMA temp_store = MEMORY');
const replay = statements.map((r) => ({
  kind: r.kind,
  sql: r.sql,
  statement: r.kind === 'exec' ? null : (db.prepare(r.sql) as StatementSync),
  drawsSequence: /^insert into "event_sequences"/.test(r.sql),
  slots: r.params.map((p, i): Slot => {
    if (i === sequenceColumn(r)) return { sequence: true };
    const at = minted.indexOf(p as string);
    return at >= 0 ? { minted: at } : { constant: p };
  }),
}));

let serial = 0;
function runCreate(): string {
  const fresh = minted.map((old) => `${old.slice(0, -12)}F${String(++serial).padStart(11, '0')}`);
  let sequence = 0;
  for (const r of replay) {
    if (r.statement === null) {
      db.exec(r.sql);
      continue;
    }
    const params = r.slots.map((s) => ('constant' in s ? s.constant : 'minted' in s ? fresh[s.minted] : sequence));
    const out = (r.statement as unknown as Record<string, (...p: unknown[]) => unknown>)[r.kind]!(...params);
    if (r.drawsSequence) sequence = Number(Object.values((out as object[])[0]!)[0]);
  }
  return fresh[minted.indexOf(answer.id as string)]!;
}

let failures = 0;
const pipeline = groupCommit(new SqliteTransaction(db), () => {});
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST') return reply(200, { status: 'ok' }); // readiness
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; country: string };
    pipeline
      .write(async () => runCreate())
      .then(
        (id) => reply(200, { ...answer, id, type: body.type, country: body.country }),
        (error: Error) => {
          if (failures++ === 0) process.stderr.write(`sqlite-floor: a replayed create failed: ${error.message}\n`);
          reply(500, { error: error.message });
        },
      );
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () =>
  process.stdout.write(`listening: ${replay.length} statements per create\n`),
);
process.on('SIGTERM', () =>
  server.close(() =>
    pipeline.close().then(() => {
      db.close();
      rmSync(dirname(path), { recursive: true, force: true });
      process.exit(0);
    }),
  ),
);
