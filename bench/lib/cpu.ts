/**
 * CPU time spent per request, by the server under test (its process and every descendant: cluster workers) and by
 * the PostgreSQL backends serving its database, from /proc (Linux). On a machine where the load generator, the server
 * and PostgreSQL share two cores, throughput follows CPU per request: this is what says why one server answers fewer
 * requests than another, and which process the difference sits in.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in ms, and its parent; null when it is gone. */
function stat(pid: number): { ms: number; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND, ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

/** CPU ms of each process in `pid`'s tree (itself and its living descendants). */
function tree(pid: number): Map<number, number> {
  const parents = new Map<number, number[]>();
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const each = Number(entry);
    if (!Number.isInteger(each)) continue;
    const s = stat(each);
    if (s === null) continue;
    times.set(each, s.ms);
    parents.set(s.ppid, [...(parents.get(s.ppid) ?? []), each]);
  }
  const found = new Map<number, number>();
  const walk = (at: number) => {
    if (times.has(at)) found.set(at, times.get(at)!);
    for (const child of parents.get(at) ?? []) walk(child);
  };
  walk(pid);
  return found;
}

async function backends(databaseUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return new Map(rows.flatMap(({ pid }) => [[pid, stat(pid)?.ms ?? 0] as [number, number]]));
  } finally {
    await client.end();
  }
}

export interface CpuShare {
  /** CPU ms per request answered. */
  server: number;
  /** Null without a PostgreSQL database to look at. */
  postgres: number | null;
}

const grown = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** Starts counting for the server `pid` (and the backends of `databaseUrl`); the function answers per request. */
export async function watchCpu(pid: number, databaseUrl?: string): Promise<(requests: number) => Promise<CpuShare>> {
  const server = tree(pid);
  const database = databaseUrl === undefined ? null : await backends(databaseUrl);
  return async (requests) => {
    const n = Math.max(requests, 1);
    const serverMs = grown(server, tree(pid));
    const postgresMs =
      databaseUrl === undefined || database === null ? null : grown(database, await backends(databaseUrl));
    return { server: serverMs / n, postgres: postgresMs === null ? null : postgresMs / n };
  };
}
