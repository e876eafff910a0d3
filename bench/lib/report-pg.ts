/** Issue 22's targets (PostgreSQL that scales, and SQLite create against its floor) and the PostgreSQL tables. */
import { type BareRun, ORGS, type PostgresResults, type PostgresRun, RING } from '../phases/postgres.ts';
import type { SqliteResults } from '../phases/sqlite.ts';
import type { CpuShare } from './cpu.ts';
import type { Load } from './load.ts';
import { type Histogram, quantile, shareAtMost } from './metrics.ts';
import { pct, type Target, x } from './report.ts';

const LAG_BOUND = 0.25;

const ms = (seconds: number | null) => (seconds === null ? '?' : `${Math.round(seconds * 1000)} ms`);
const lagOf = (r: PostgresRun) =>
  r.lag === null ? 'no metric' : r.lag.count === 0 ? 'no events' : `${ms(quantile(r.lag, 0.99))}`;
const vsBare = (pg: PostgresResults, r: PostgresRun) => r.load.rps / pg.baseline;
const latency = (l: Load) => `p50 ${l.p50} / p99 ${l.p99} ms`;

function ratioTarget(pg: PostgresResults, name: string, wanted: number, r: PostgresRun): Target {
  const ratio = vsBare(pg, r);
  return {
    name,
    target: `≥ ${wanted.toFixed(2)}×`,
    measured: `${x(ratio)} (${r.load.rps.toFixed(0)} req/s, ${latency(r.load)})`,
    pass: ratio >= wanted && r.load.errors + r.load.non2xx === 0,
    loads: [r.load, pg.bare.load, pg.bareAgain.load],
  };
}

/** The round trips of one kind as the report shows them: felt, and the server's own count. */
function tripsOf(pg: PostgresResults, kind: string): { felt: number | null; counted: string } {
  const t = pg.roundTrips.find((each) => each.kind === kind);
  if (t === undefined) return { felt: null, counted: '?' };
  if (t.counted === null) return { felt: t.felt, counted: 'no metric' };
  const counted = [...new Set(t.counted)].sort((a, b) => a - b);
  return { felt: t.felt, counted: counted.length === 0 ? 'no clean reading' : counted.join('–') };
}

export function postgresTargets(s: SqliteResults | null, pg: PostgresResults | null): Target[] {
  const list: Target[] = [];
  if (pg !== null) {
    const { best } = pg;
    const setting = `${best.workers} worker(s), pool ${best.pool}`;
    list.push(ratioTarget(pg, `PostgreSQL create, one org, vs bare durable insert (${setting})`, 0.5, best));
    list.push(
      ratioTarget(pg, `PostgreSQL transfer, one org (${RING} accounts), vs bare durable insert`, 0.35, pg.transfers),
    );
    list.push(ratioTarget(pg, `PostgreSQL create, ${ORGS} orgs in turn, vs bare durable insert`, 0.6, pg.manyOrgs));
    const create = tripsOf(pg, 'create, Idempotency-Key');
    const transfer = tripsOf(pg, 'transfer, Idempotency-Key');
    list.push({
      name: 'round trips per create / per transfer (with Idempotency-Key; felt from latency, and counted by the server)',
      target: '≤ 3 / ≤ 4',
      measured: `felt ${create.felt ?? '?'} / ${transfer.felt ?? '?'}; counted ${create.counted} / ${transfer.counted}`,
      pass: create.felt !== null && transfer.felt !== null && create.felt <= 3 && transfer.felt <= 4,
    });
    const lagged = [best, pg.transfers, pg.manyOrgs];
    const noMetric = lagged.some((r) => r.lag === null);
    list.push({
      name: 'event numbering lag p99 under those loads (create / transfer / 16 orgs)',
      target: '≤ 250 ms',
      measured: lagged.map(lagOf).join(' / '),
      pass: noMetric ? null : lagged.every((r) => shareAtMost(r.lag!, LAG_BOUND) >= 0.99),
      loads: lagged.map((r) => r.load),
    });
    const one = pg.runs.find((r) => r.workers === 1 && r.pool === best.pool);
    const two = pg.runs.find((r) => r.workers === 2 && r.pool === best.pool);
    const ratio = one && two ? two.load.rps / one.load.rps : null;
    list.push({
      name: `2 workers vs 1 worker, creates, pool ${best.pool} each`,
      target: '≥ 1.00×',
      measured:
        ratio === null
          ? 'not measured'
          : `${x(ratio)} (${two!.load.rps.toFixed(0)} vs ${one!.load.rps.toFixed(0)} req/s)`,
      pass: ratio === null ? null : ratio >= 1,
      loads: one && two ? [one.load, two.load] : [],
    });
  }
  if (s !== null) {
    const ratio = s.create.rps / s.floorCreate.rps;
    list.push({
      name: 'SQLite create vs its floor server (the same statements in the same group commit, bare node:http)',
      target: '≥ 0.60×',
      measured:
        `${x(ratio)} (${s.create.rps.toFixed(0)} vs ${s.floorCreate.rps.toFixed(0)} req/s; server CPU per create ` +
        `${(s.cpuPerCreate.plinth * 1000).toFixed(0)} vs ${(s.cpuPerCreate.floor * 1000).toFixed(0)} µs)`,
      pass: ratio >= 0.6,
      loads: [s.create, s.floorCreate],
    });
  }
  return list;
}

const cpuOf = (c: CpuShare) => `${c.server.toFixed(2)} / ${c.postgres === null ? '?' : c.postgres.toFixed(2)}`;

const row = (label: string, pg: PostgresResults, r: PostgresRun) => {
  const l = r.load;
  const lag = r.lag === null || r.lag.count === 0 ? lagOf(r) : `${lagOf(r)} (${pct(shareAtMost(r.lag, LAG_BOUND))})`;
  const trips = r.trips === null || r.trips.count === 0 ? '?' : (r.trips.sum / r.trips.count).toFixed(1);
  return (
    `| ${label} | ${l.rps.toFixed(0)} | ${x(vsBare(pg, r))} | ${l.p50} | ${l.p99} | ${l.non2xx} | ${l.errors} | ` +
    `${lag} | ${trips} | ${cpuOf(r.cpu)} | ${pct(l.pressure.cpu)} / ${pct(l.pressure.io)} |`
  );
};

/** Per request of a load: a histogram's sum (every write of the run) over the requests answered; '?' without it. */
const perRequest = (h: Histogram | null, r: PostgresRun) =>
  h === null || h.count === 0 ? '?' : (h.sum / Math.max(1, r.load.ok + r.load.non2xx)).toFixed(1);
const perWrite = (h: Histogram | null) => (h === null || h.count === 0 ? '?' : (h.sum / h.count).toFixed(1));
const micros = (ms: number | null) => (ms === null ? '?' : (ms * 1000).toFixed(0));

/**
 * What one write costs PostgreSQL and the server (issue 44): statements and round trips per request (every write of
 * the run over the requests answered: the sequencer's passes and the request log's batches shared among them) and per
 * write, and CPU µs per request of the server and of PostgreSQL's backends.
 */
export function perWriteLines(pg: PostgresResults): string[] {
  const line = (label: string, r: PostgresRun) =>
    `| ${label} | ${perRequest(r.statements, r)} | ${perWrite(r.statements)} | ${perRequest(r.trips, r)} | ` +
    `${micros(r.cpu.server)} | ${micros(r.cpu.postgres)} | ${pct(r.load.pressure.cpu)} |`;
  const bare = (label: string, { cpu, load }: BareRun) =>
    `| ${label} | 3 | 3 | 3 | ${micros(cpu.server)} | ${micros(cpu.postgres)} | ${pct(load.pressure.cpu)} |`;
  return [
    '### Per write: statements, round trips, CPU (one org; every figure per request answered unless it says per write)',
    '',
    '| load | statements per request | statements per write | round trips per request | server CPU µs | ' +
      'PostgreSQL CPU µs | CPU pressure |',
    '|---|---|---|---|---|---|---|',
    bare('bare durable insert (BEGIN, INSERT, COMMIT, each awaited), before', pg.bare),
    line(`create, ${pg.best.workers} worker(s), pool ${pg.best.pool}`, pg.best),
    line('transfer', pg.transfers),
    '',
    'CPU per request is measured under the load itself: on a machine whose cores the load generator, the server and ' +
      'PostgreSQL share (and other work), it moves with contention (see the CPU pressure); the statement and round ' +
      'trip counts do not.',
  ];
}

export function postgresLines(pg: PostgresResults): string[] {
  const bare = (label: string, { load: l, cpu }: BareRun) =>
    `| ${label} | ${l.rps.toFixed(0)} | | ${l.p50} | ${l.p99} | ${l.non2xx} | ${l.errors} | | | ${cpuOf(cpu)} | ` +
    `${pct(l.pressure.cpu)} / ${pct(l.pressure.io)} |`;
  const lines = [
    `Baseline: the bare durable insert (node:http + node-pg, BEGIN / INSERT / COMMIT per request, pool ${pg.barePool}), ` +
      `measured before and after Plinth's loads; ratios are against their mean, ${pg.baseline.toFixed(0)} req/s. ` +
      'Lag: `plinth_event_numbering_lag_seconds` p99 over the server run (every worker), in brackets the share numbered ' +
      'within 250 ms. Round trips: `plinth_db_round_trips` mean over every write of the run, the sequencer’s passes ' +
      'included. CPU per request: ms of CPU time of the server (every worker) / of the PostgreSQL backends serving ' +
      'it, per request answered during the load (bench/lib/cpu.ts).',
    '',
    '| server and load | req/s | vs bare | p50 ms | p99 ms | non-2xx | errors | lag p99 | round trips per write | ' +
      'CPU ms per request: server / PostgreSQL | CPU / I/O pressure |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    bare('bare durable insert, before', pg.bare),
  ];
  for (const r of pg.runs) lines.push(row(`Plinth: create, one org, ${r.workers} worker(s), pool ${r.pool}`, pg, r));
  const setting = `${pg.best.workers} worker(s), pool ${pg.best.pool}`;
  lines.push(row(`Plinth: transfer around ${RING} funded accounts of one org, ${setting}`, pg, pg.transfers));
  lines.push(row(`Plinth: create from ${ORGS} orgs in turn, ${setting}`, pg, pg.manyOrgs));
  lines.push(bare('bare durable insert, after', pg.bareAgain));
  lines.push('', ...perWriteLines(pg));
  lines.push(
    '',
    '### Round trips per request (bench/lib/round-trips.ts: one request at a time through a proxy adding 50 ms each way)',
    '',
    '| request | felt: (quickest delayed − quickest direct) / 100 ms | counted by the server for its write | quickest direct | quickest delayed |',
    '|---|---|---|---|---|',
    ...pg.roundTrips.map(
      (t) =>
        `| ${t.kind} | ${t.felt} | ${tripsOf(pg, t.kind).counted} | ${t.directMs.toFixed(0)} ms | ${t.delayedMs.toFixed(0)} ms |`,
    ),
  );
  return lines;
}
