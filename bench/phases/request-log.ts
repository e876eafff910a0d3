/**
 * What the request log costs (issue 26: at most 10% of throughput): Plinth on SQLite with the request log on (the
 * default) and with `REQUEST_LOG=off`, each on an empty database of its own, both started before either is loaded.
 * The create and the retrieve loads run in the order on, off, off, on (ABBA), so that a machine getting busier or
 * quieter during the phase weighs on both sides alike; each side's figure is the mean of its two loads.
 */
import { join } from 'node:path';
import { abba } from '../lib/abba.ts';
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

/** Runs `load` on `on`, `off`, `off`, `on`, and returns each side's mean. */
async function onOff(name: string, on: Plinth, off: Plinth, load: (server: Plinth) => Promise<Load>) {
  const { a, b } = await abba(
    [`Plinth SQLite: ${name}, request log on`, () => load(on)],
    [`Plinth SQLite: ${name}, request log off`, () => load(off)],
  );
  return { on: a, off: b };
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
    const create = await onOff('create', on, off, (s) => loadCreate(s.port, s.authorization));
    const ids = new Map([
      [on, await createOne(on)],
      [off, await createOne(off)],
    ]);
    const retrieve = await onOff('retrieve', on, off, (s) =>
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
