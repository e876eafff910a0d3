/**
 * A preload (`node --import ./bench/lib/pg-statements.ts src/server.ts`) that counts the statements the server sends
 * to PostgreSQL through node-postgres, whatever sends them (a write, a read on the pool, the sequencer, the request
 * log): it wraps `pg.Client.prototype.query`, so the server is measured as it runs, unchanged. On SIGUSR2 it writes
 * the count since the previous SIGUSR2 to BENCH_PG_STATEMENTS_OUT (JSON: the total, and each statement's count by its
 * first 160 characters; the writes to PostgreSQL's sockets) and starts afresh. bench/pg-writes.ts signals before and
 * after each load. With BENCH_PG_PROFILE_DIR it also profiles the server's CPU between two signals:
 * `<n>.cpuprofile` from the n-th to the next.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import net from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

const out = process.env.BENCH_PG_STATEMENTS_OUT;
let total = 0;
let byText = new Map<string, number>();
/** System calls that wrote to PostgreSQL's sockets (one `_write` or `_writev` of a socket each). */
let socketWrites = 0;
const postgresPort = Number(new URL(process.env.DATABASE_URL ?? 'postgres://x:5432/').port || 5432);
type Writes = { _write: (...args: unknown[]) => unknown; _writev: (...args: unknown[]) => unknown };
const socket = net.Socket.prototype as unknown as Writes;
for (const method of ['_write', '_writev'] as const) {
  const original = socket[method];
  socket[method] = function (this: net.Socket, ...args: unknown[]) {
    if (this.remotePort === postgresPort) socketWrites++;
    return original.apply(this, args);
  };
}

const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: typeof query }).query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '?');
  const key = text.replace(/\s+/g, ' ').slice(0, 160);
  total++;
  byText.set(key, (byText.get(key) ?? 0) + 1);
  return query.apply(this, args);
};

const profileDir = process.env.BENCH_PG_PROFILE_DIR;
const session = profileDir ? new Session() : null;
let signals = 0;
async function nextProfile(n: number): Promise<void> {
  if (session === null || profileDir === undefined) return;
  if (n === 1) {
    session.connect();
    await session.post('Profiler.enable');
  } else {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(profileDir, `${n - 1}.cpuprofile`), JSON.stringify(profile));
  }
  await session.post('Profiler.start');
}

process.on('SIGUSR2', () => {
  void nextProfile(++signals);
  if (out) {
    const statements = [...byText].sort((a, b) => b[1] - a[1]).map(([text, count]) => ({ count, text }));
    writeFileSync(out, JSON.stringify({ total, socketWrites, statements }));
  }
  total = 0;
  socketWrites = 0;
  byText = new Map();
});
