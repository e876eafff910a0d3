/**
 * What the request log costs (issue 26: at most 10% of throughput): Plinth on SQLite with the request log on (the
 * default) and with `REQUEST_LOG=off`, each on an empty database of its own, both started before either is loaded.
 * The create and the retrieve loads run in the order on, off, off, on (ABBA), so that a machine getting busier or
 * quieter during the phase weighs on both sides alike; each side's figure is the mean of its two loads.
 */
import { join } from 'node:path';
import { type Load, loadCreate, loadGet } from '../lib/load.ts';
import { createOne, type Plinth, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';

export interface RequestLogResults {
  on: { create: Load; retrieve: Load };
  off: { create: Load; retrieve: Load };
  /** With the log / without it, same run. */
  createRatio: number;
  retrieveRatio: number;
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Two loads of one side as one figure: their mean rate, the worse percentiles, the sums of the counts. */
function mean(a: Load, b: Load): Load {
  return {
    rps: (a.rps + b.rps) / 2,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    ok: a.ok + b.ok,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    pressure: {
      cpu: ((a.pressure.cpu ?? 0) + (b.pressure.cpu ?? 0)) / 2,
      io: ((a.pressure.io ?? 0) + (b.pressure.io ?? 0)) / 2,
    },
  };
}

/** Runs `load` on `on`, `off`, `off`, `on`, and returns each side's mean. */
async function abba(name: string, on: Plinth, off: Plinth, load: (server: Plinth) => Promise<Load>) {
  const runs: Load[] = [];
  for (const [side, server] of [
    ['on', on],
    ['off', off],
    ['off', off],
    ['on', on],
  ] as const) {
    log(`Plinth SQLite: ${name}, request log ${side}`);
    runs.push(await load(server));
  }
  return { on: mean(runs[0]!, runs[3]!), off: mean(runs[1]!, runs[2]!) };
}

export async function requestLogPhase(dir: string): Promise<RequestLogResults> {
  const on = await startPlinth({ databaseUrl: `sqlite:${join(dir, 'log-on.db')}`, dir, name: 'sqlite-log-on' });
  const off = await startPlinth({
    databaseUrl: `sqlite:${join(dir, 'log-off.db')}`,
    dir,
    name: 'sqlite-log-off',
    env: { REQUEST_LOG: 'off' },
  });
  try {
    const create = await abba('create', on, off, (s) => loadCreate(s.port, s.authorization));
    const ids = new Map([
      [on, await createOne(on)],
      [off, await createOne(off)],
    ]);
    const retrieve = await abba('retrieve', on, off, (s) =>
      loadGet(s.port, `/v1/fintech/accounts/${ids.get(s)}`, s.authorization),
    );
    return {
      on: { create: create.on, retrieve: retrieve.on },
      off: { create: create.off, retrieve: retrieve.off },
      createRatio: create.on.rps / create.off.rps,
      retrieveRatio: retrieve.on.rps / retrieve.off.rps,
    };
  } finally {
    await Promise.all([stop(on), stop(off)]);
  }
}
