import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { SEQUENCER_TURN } from '../../src/platform/outbox/sequencer.ts';
import type { ServerProcess } from './process.ts';

/** The local TCP ports of a process's sockets (Linux: its fds' socket inodes, found in /proc/net/tcp). */
function localPorts(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode !== undefined) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns.length > 9 && inodes.has(columns[9]!)) ports.add(Number.parseInt(columns[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/**
 * Waits (bounded) until the database shows the sequencer's lock held, then stops `server` (SIGSTOP) and looks again:
 * held 300 ms later by the same backend, idle in its transaction, on a connection of the stopped process (its client
 * port is one of the process's sockets), means that process holds an open pass which cannot commit. Otherwise the pass
 * had ended (or was the other process's): the server resumes and it tries again. Answers whether it caught one; the
 * server stays stopped when it did.
 */
export async function freezeMidPass(url: string, server: ServerProcess): Promise<boolean> {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  const holder = async () =>
    (
      await watcher.query<{ pid: number; state: string; port: number }>(
        `select l.pid, a.state, a.client_port as port from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and l.granted
           and (l.classid::bigint << 32) + l.objid::bigint = hashtextextended($1, 0)`,
        [SEQUENCER_TURN],
      )
    ).rows[0];
  try {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const seen = await holder();
      if (seen === undefined) continue;
      server.child.kill('SIGSTOP');
      await sleep(300);
      const still = await holder();
      const ours = still !== undefined && localPorts(server.child.pid!).has(still.port);
      if (still?.pid === seen.pid && still.state === 'idle in transaction' && ours) return true;
      server.child.kill('SIGCONT');
    }
    return false;
  } finally {
    await watcher.end();
  }
}
