/**
 * `node bench/pg-statement-overhead.ts`: what one more statement in a write costs by itself, on PostgreSQL (issue
 * 44): N pipelined transactions of BEGIN, k trivial prepared selects and COMMIT on one connection, k = 0 and 8, twice;
 * the backend's CPU (from /proc) and this process's per transaction. The difference over 8 is a statement's own cost
 * (Bind, Describe, Execute, Sync, the reply's flush, node-postgres' handling), without any work of its own.
 * BENCH_POSTGRES_URL selects the server (the local test server by default); N (3000) the transactions per setting.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { postgresServer } from './lib/postgres.ts';

const cpuMs = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // ticks of 10 ms (CLK_TCK 100)
};

const url = await postgresServer();
if (url === null) throw new Error('no PostgreSQL answers');
const client = new pg.Client({ connectionString: url, pipeline: true } as pg.ClientConfig);
await client.connect();
const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
const N = Number(process.env.N ?? 3000);
for (const k of [0, 8, 0, 8]) {
  const backend = cpuMs(pid);
  const own = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const all: Promise<unknown>[] = [client.query('begin')];
    for (let j = 0; j < k; j++) all.push(client.query({ name: 'overhead', text: 'select $1::int as v', values: [j] }));
    all.push(client.query('commit'));
    await Promise.all(all);
  }
  const used = process.cpuUsage(own);
  process.stdout.write(
    `k=${k}: backend ${(((cpuMs(pid) - backend) * 1000) / N).toFixed(0)} µs per transaction, node-postgres ` +
      `${((used.user + used.system) / N).toFixed(0)} µs\n`,
  );
}
await client.end();
