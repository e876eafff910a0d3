/** The targets of issues 10 and 12 checked against one run's figures, and the SQLite loads of bench/RESULTS.md. */

import { cpus, totalmem } from 'node:os';
import type { PostgresResults } from '../phases/postgres.ts';
import type { SqliteResults } from '../phases/sqlite.ts';
import { CONNECTIONS, type Load, SECONDS } from './load.ts';

export interface Target {
  name: string;
  target: string;
  measured: string;
  /** null: not measurable yet (pending). */
  pass: boolean | null;
  /** The loads it was measured from, to tell whether other work disturbed them. */
  loads?: Load[];
}

/** CPU pressure above which a load counts as disturbed by other work on the machine (see lib/pressure.ts). */
export const DISTURBED = 0.5;
const disturbed = (t: Target) => (t.loads ?? []).some((l) => (l.pressure.cpu ?? 0) > DISTURBED);

export const x = (ratio: number) => `${ratio.toFixed(2)}×`;
const mark = (t: Target) =>
  (t.pass === null ? 'pending' : t.pass ? 'pass' : 'FAIL') + (disturbed(t) ? ' (disturbed)' : '');

export function targets(s: SqliteResults | null, pg: PostgresResults | null): Target[] {
  const list = s === null ? [] : sqliteTargets(s);
  if (pg) {
    const ratio = pg.best.load.rps / pg.baseline;
    list.push({
      name: `PostgreSQL create vs bare durable insert (issue 10; best: ${pg.best.workers} worker(s), pool ${pg.best.pool})`,
      target: '≥ 0.80×',
      measured: x(ratio),
      pass: ratio >= 0.8,
      loads: [pg.best.load, pg.bare.load, pg.bareAgain.load],
    });
  }
  return list;
}

function sqliteTargets(s: SqliteResults): Target[] {
  const create = s.create.rps / s.bareCreate.rps;
  const retrieve = s.retrieve.rps / s.bareRetrieve.rps;
  const seeded = s.seeded.rps / s.create.rps;
  const transfer = s.transfer.rps / s.create.rps;
  const list: Target[] = [
    {
      name: 'SQLite create vs bare',
      target: '≥ 0.50×',
      measured: x(create),
      pass: create >= 0.5,
      loads: [s.create, s.bareCreate],
    },
    {
      name: 'SQLite create p99',
      target: '≤ 10 ms',
      measured: `${s.create.p99} ms`,
      pass: s.create.p99 <= 10,
      loads: [s.create],
    },
    {
      name: 'SQLite create errors + non-2xx',
      target: '0',
      measured: `${s.create.errors} + ${s.create.non2xx}`,
      pass: s.create.errors + s.create.non2xx === 0,
    },
    {
      name: 'SQLite retrieve vs bare',
      target: '≥ 0.60×',
      measured: x(retrieve),
      pass: retrieve >= 0.6,
      loads: [s.retrieve, s.bareRetrieve],
    },
    {
      name: 'SQLite transfers vs create (same run)',
      target: '≥ 0.70×',
      measured: x(transfer),
      pass: transfer >= 0.7,
      loads: [s.transfer, s.create],
    },
    {
      name: 'SQLite transfer p99',
      target: '≤ 15 ms',
      measured: `${s.transfer.p99} ms`,
      pass: s.transfer.p99 <= 15 && s.transfer.errors + s.transfer.non2xx === 0,
      loads: [s.transfer],
    },
    {
      name: 'Create, 1,000,000 accounts vs empty',
      target: '≥ 0.90×',
      measured: x(seeded),
      pass: seeded >= 0.9,
      loads: [s.seeded, s.create],
    },
  ];
  const scraped = s.createScraped ? s.createScraped.rps / s.create.rps : null;
  list.push({
    name: 'Create with /metrics scraped 1/s vs not',
    target: '≥ 0.95×',
    measured: scraped === null ? 'no /metrics yet' : x(scraped),
    pass: scraped === null ? null : scraped >= 0.95,
    loads: s.createScraped ? [s.createScraped, s.create] : [],
  });
  return list;
}

/** The load under which the API server's resident memory peaked highest (bench/lib/plinth.ts's `rssPeaks`). */
export function worstRss(peaks: ReadonlyMap<string, number>): { load: string; mib: number } | null {
  let worst: { load: string; mib: number } | null = null;
  for (const [load, mib] of peaks) if (worst === null || mib > worst.mib) worst = { load, mib };
  return worst;
}

const megabytes = (mib: number) => mib * 1.048576;

export function rssLine(worst: { load: string; mib: number }): string {
  const mb = megabytes(worst.mib);
  return `server peak RSS, every load: worst ${mb.toFixed(0)} MB (${worst.mib} MiB, ${worst.load}), wanted ≤ 200 MB: ${mb <= 200 ? 'pass' : 'FAIL'}`;
}

/** Issue 44: the API server's peak RSS under every load of the run, ≤ 200 MB; names the worst load. */
export function rssTarget(peaks: ReadonlyMap<string, number>): Target[] {
  const worst = worstRss(peaks);
  if (worst === null) return [];
  return [
    {
      name: 'server peak RSS, every load',
      target: '≤ 200 MB',
      measured: `${megabytes(worst.mib).toFixed(0)} MB (${worst.mib} MiB), worst: ${worst.load}`,
      pass: megabytes(worst.mib) <= 200,
    },
  ];
}

/** Every server's peak RSS, for the note under the targets. */
export function rssNote(peaks: ReadonlyMap<string, number>, others: ReadonlyMap<string, number>): string[] {
  if (peaks.size === 0) return [];
  const list = (map: ReadonlyMap<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([load, mib]) => `${load} ${mib}`)
      .join(', ');
  return [
    `Peak RSS of the API server (VmHWM, MiB; its delivery processes not included), by load: ${list(peaks)}.` +
      (others.size === 0
        ? ''
        : ` Not counted in the target (other processes of the loads, and servers run with a preload such as bench/probe.ts, which npm start does not load): ${list(others)}.`),
    '',
  ];
}

export function targetLines(list: Target[]): string[] {
  return [
    '| target | wanted | measured | |',
    '|---|---|---|---|',
    ...list.map((t) => `| ${t.name} | ${t.target} | ${t.measured} | ${mark(t)} |`),
  ];
}

export const pct = (share: number | null) => (share === null ? '?' : `${Math.round(share * 100)}%`);
const row = (label: string, l: Load, base?: Load) =>
  `| ${label} | ${l.rps.toFixed(0)} | ${base ? x(l.rps / base.rps) : ''} | ${l.p50} | ${l.p99} | ${l.non2xx} | ` +
  `${l.errors} | ${pct(l.pressure.cpu)} / ${pct(l.pressure.io)} |`;

export function loadLines(s: SqliteResults, seedAccounts: number): string[] {
  return [
    '| server and load | req/s | ratio | p50 ms | p99 ms | non-2xx | errors | CPU / I/O pressure |',
    '|---|---|---|---|---|---|---|---|',
    row('bare node:http, fixed account JSON: POST (ceiling for create)', s.bareCreate),
    row('bare node:http, fixed account JSON: GET (ceiling for retrieve)', s.bareRetrieve),
    row(
      'floor: a recorded create in the group commit, bare node:http (bench/servers/sqlite-floor.ts; vs bare POST)',
      s.floorCreate,
      s.bareCreate,
    ),
    row('Plinth SQLite: create, fresh Idempotency-Key each (vs bare POST)', s.create, s.bareCreate),
    row('Plinth SQLite: retrieve one account (vs bare GET)', s.retrieve, s.bareRetrieve),
    row('Plinth SQLite: transfer 1 cent, fresh Idempotency-Key each (vs create)', s.transfer, s.create),
    ...(s.createScraped
      ? [row('Plinth SQLite: create, /metrics scraped 1/s (vs create)', s.createScraped, s.create)]
      : []),
    row(
      `Plinth SQLite: create, ${seedAccounts.toLocaleString('en')} existing accounts (vs create)`,
      s.seeded,
      s.create,
    ),
  ];
}

export function machine(loadAtStart: number): string {
  const cores = cpus();
  return [
    `${new Date().toISOString().slice(0, 16)}Z`,
    `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown'})`,
    `${Math.round(totalmem() / 2 ** 30)} GiB`,
    `Node ${process.versions.node}`,
    `load average ${loadAtStart.toFixed(1)} at start`,
    `${CONNECTIONS} connections`,
    `${SECONDS} s per load`,
  ].join(' · ');
}
