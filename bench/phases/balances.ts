/**
 * What a balance at a past moment costs (issue 31: `GET /v1/fintech/accounts/{id}/balances?at=` at least 0.7× the
 * throughput of a retrieve of the same account): one fresh Plinth on SQLite, one account given 100,000 transactions
 * straight in the database (bench/history.ts), then retrieve, balances, balances, retrieve (ABBA; each side the mean of
 * its two loads), `at` the middle of the history. The answer's cost must not grow with the history: one seek of the
 * account's entries by time.
 */
import { join } from 'node:path';
import { seedHistory } from '../history.ts';
import { abba } from '../lib/abba.ts';
import { type Load, loadGet } from '../lib/load.ts';
import { createOne, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';
import { type Target, x } from '../lib/report.ts';

export const HISTORY = 100_000;
const WANTED = 0.7;

export interface BalancesResults {
  retrieve: Load;
  balances: Load;
  ratio: number;
}

export async function balancesPhase(dir: string): Promise<BalancesResults> {
  const path = join(dir, 'balances.db');
  const server = await startPlinth({ databaseUrl: `sqlite:${path}`, dir, name: 'balances' });
  try {
    const id = await createOne(server);
    const at = seedHistory(path, id, HISTORY);
    const read = (suffix: string) => () =>
      loadGet(server.port, `/v1/fintech/accounts/${id}${suffix}`, server.authorization);
    const { a: retrieve, b: balances } = await abba(
      ['retrieve (history)', read('')],
      ['balances?at= (history)', read(`/balances?at=${at}`)],
    );
    return { retrieve, balances, ratio: balances.rps / retrieve.rps };
  } finally {
    await stop(server);
  }
}

export function balancesTargets(r: BalancesResults | null): Target[] {
  if (r === null) return [];
  const { balances, retrieve } = r;
  return [
    {
      name: `SQLite balances?at= vs retrieve, one account with ${HISTORY.toLocaleString('en')} transactions (ABBA)`,
      target: `≥ ${WANTED.toFixed(2)}×`,
      measured:
        `${x(r.ratio)} (${balances.rps.toFixed(0)} vs ${retrieve.rps.toFixed(0)} req/s; ` +
        `p99 ${balances.p99} vs ${retrieve.p99} ms)`,
      pass: r.ratio >= WANTED && balances.errors + balances.non2xx + retrieve.errors + retrieve.non2xx === 0,
      loads: [balances, retrieve],
    },
  ];
}
