/**
 * Issue 44's targets (speed that holds up), each against its baseline measured in the same run: the wave's table in
 * one place of bench/RESULTS.md, beside the webhook, slow-disk and memory targets (bench/run.ts).
 */
import { type InstructionResults, spread } from '../phases/instructions.ts';
import type { PostgresResults } from '../phases/postgres.ts';
import type { SqliteResults } from '../phases/sqlite.ts';
import { type Target, x } from './report.ts';

const k = (n: number) => `${Math.round(n / 1000)}k`;

function sqliteLines(s: SqliteResults): Target[] {
  const create = s.create.rps / s.bareCreate.rps;
  const retrieve = s.retrieve.rps / s.bareRetrieve.rps;
  return [
    {
      name: 'SQLite create vs bare node:http (issue 44)',
      target: '≥ 0.15×, p99 ≤ 15 ms',
      measured: `${x(create)}, p99 ${s.create.p99} ms`,
      pass: create >= 0.15 && s.create.p99 <= 15,
      loads: [s.create, s.bareCreate],
    },
    {
      name: 'SQLite retrieve vs bare node:http (issue 44)',
      target: '≥ 0.35×',
      measured: x(retrieve),
      pass: retrieve >= 0.35,
      loads: [s.retrieve, s.bareRetrieve],
    },
  ];
}

function postgresLines(pg: PostgresResults): Target[] {
  const create = pg.best.load.rps / pg.baseline;
  const transfer = pg.transfers.load.rps / pg.baseline;
  const cpu = (ms: number) => `${Math.round(ms * 1000)} µs`;
  return [
    {
      name: 'PostgreSQL one org: create / transfer vs a bare durable insert (issue 44)',
      target: '≥ 0.40× / ≥ 0.20×',
      measured: `${x(create)} / ${x(transfer)}`,
      pass: create >= 0.4 && transfer >= 0.2,
      loads: [pg.best.load, pg.transfers.load, pg.bare.load, pg.bareAgain.load],
    },
    {
      name: "PostgreSQL: the server's CPU per create / per transfer, and the bare server's per insert",
      target: 'measured',
      measured: `${cpu(pg.best.cpu.server)} / ${cpu(pg.transfers.cpu.server)}; bare ${cpu(pg.bare.cpu.server)}`,
      pass: null,
      loads: [pg.best.load, pg.transfers.load, pg.bare.load],
    },
  ];
}

function instructionLines(i: InstructionResults): Target[] {
  const name = 'instructions per create / per retrieve (bench/instructions.ts, valgrind; two runs)';
  if ('skipped' in i) return [{ name, target: '≤ 500k / ≤ 250k', measured: `skipped: ${i.skipped}`, pass: null }];
  const creates = i.runs.map((r) => r.create);
  const retrieves = i.runs.map((r) => r.retrieve);
  const apart = Math.max(spread(creates), spread(retrieves));
  return [
    {
      name: 'instruction count: two runs of the same code agree (create, retrieve)',
      target: 'within 5%',
      measured: `${(spread(creates) * 100).toFixed(1)}%, ${(spread(retrieves) * 100).toFixed(1)}%`,
      pass: apart <= 0.05,
    },
    {
      name,
      target: '≤ 500k / ≤ 250k',
      measured: `${creates.map(k).join(', ')} / ${retrieves.map(k).join(', ')}`,
      pass: Math.max(...creates) <= 500_000 && Math.max(...retrieves) <= 250_000,
    },
  ];
}

export function issue44Targets(
  s: SqliteResults | null,
  pg: PostgresResults | null,
  instructions: InstructionResults | null,
): Target[] {
  return [
    ...(s === null ? [] : sqliteLines(s)),
    ...(pg === null ? [] : postgresLines(pg)),
    ...(instructions === null ? [] : instructionLines(instructions)),
  ];
}
