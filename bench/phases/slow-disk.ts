/**
 * A slow disk (issue 33): the SQLite create load with a retrieve load beside it, on a server whose fsync and
 * fdatasync each take 5 ms more (strace's fault injection, as a network or cloud disk would), against the same
 * loads without the delay, in the same run. Skipped, with a line saying so, where strace is missing or may not trace.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Load, loadCreate, loadGet } from '../lib/load.ts';
import { createOne, type Plinth, startPlinth } from '../lib/plinth.ts';
import { stop, watchRss } from '../lib/process.ts';

/** Connections of the retrieve load beside the creates: one client reading while the others write. */
const RETRIEVE_CONNECTIONS = 4;
const DELAY_MICROS = 5000;

export const SLOW_DISK_STRACE = [
  'strace',
  '-f',
  '--seccomp-bpf',
  '-o',
  '/dev/null',
  '-e',
  'trace=fsync,fdatasync',
  '-e',
  `inject=fsync,fdatasync:delay_enter=${DELAY_MICROS}`,
];

export interface SideBySide {
  create: Load;
  retrieve: Load;
  rssPeakMiB: number;
}
export type SlowDiskResults = { skipped: string } | { plain: SideBySide; delayed: SideBySide };

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

function straceMissing(): string | undefined {
  const probe = spawnSync(SLOW_DISK_STRACE[0]!, [...SLOW_DISK_STRACE.slice(1), 'true'], { encoding: 'utf8' });
  if (probe.error !== undefined) return `strace is not installed (${probe.error.message})`;
  if (probe.status !== 0) return `strace cannot trace here: ${probe.stderr.trim().split('\n')[0]}`;
  return undefined;
}

/** The server's own process: under strace, the wrapper's child. */
function serverPid(server: Plinth): number {
  const pid = server.child.pid!;
  if (server.child.spawnargs[0] === process.execPath) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  return Number(children[0]);
}

async function sideBySide(server: Plinth): Promise<SideBySide> {
  const id = await createOne(server);
  const peak = watchRss(serverPid(server));
  const [create, retrieve] = await Promise.all([
    loadCreate(server.port, server.authorization),
    loadGet(server.port, `/v1/fintech/accounts/${id}`, server.authorization, { connections: RETRIEVE_CONNECTIONS }),
  ]);
  return { create, retrieve, rssPeakMiB: peak() };
}

export async function slowDiskPhase(dir: string): Promise<SlowDiskResults> {
  const missing = straceMissing();
  if (missing !== undefined) return { skipped: missing };
  const run = async (name: string, wrap?: string[]) => {
    const server = await startPlinth({
      databaseUrl: `sqlite:${join(dir, `${name}.db`)}`,
      dir,
      name,
      ...(wrap === undefined ? {} : { wrap }),
    });
    log(`Plinth SQLite: create with a retrieve beside it (${name})`);
    const result = await sideBySide(server);
    await stop(server);
    return result;
  };
  const plain = await run('disk-plain');
  const delayed = await run('disk-slow', SLOW_DISK_STRACE);
  return { plain, delayed };
}

/** The report's section: the targets of issue 33 for a slow disk. */
export function slowDiskLines(results: SlowDiskResults): string[] {
  const title = `## A slow disk (SQLite, fsync and fdatasync +${DELAY_MICROS / 1000} ms by strace)`;
  if ('skipped' in results) return [title, '', `SKIPPED: ${results.skipped}.`, ''];
  const { plain, delayed } = results;
  const ratio = delayed.create.rps / plain.create.rps;
  const pressure = (l: Load) => `CPU pressure ${((l.pressure.cpu ?? 0) * 100).toFixed(0)}%`;
  return [
    title,
    '',
    '| target | wanted | measured | |',
    '|---|---|---|---|',
    `| create, slow disk vs not (same run) | ≥ 0.85× | ${ratio.toFixed(2)}× (${delayed.create.rps.toFixed(0)} vs ` +
      `${plain.create.rps.toFixed(0)} req/s; ${pressure(delayed.create)} / ${pressure(plain.create)}) | ` +
      `${ratio >= 0.85 ? 'pass' : 'FAIL'} |`,
    `| retrieve p99 beside the creates, slow disk | ≤ 10 ms | p50 ${delayed.retrieve.p50} / p99 ` +
      `${delayed.retrieve.p99} ms (without the delay: ${plain.retrieve.p50} / ${plain.retrieve.p99} ms) | ` +
      `${delayed.retrieve.p99 <= 10 ? 'pass' : 'FAIL'} |`,
    '',
    `Retrieve beside the creates (${RETRIEVE_CONNECTIONS} connections): ${delayed.retrieve.rps.toFixed(0)} req/s ` +
      `slow, ${plain.retrieve.rps.toFixed(0)} not. Peak RSS: ${delayed.rssPeakMiB} / ${plain.rssPeakMiB} MiB.`,
    '',
  ];
}
