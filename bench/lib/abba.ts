/**
 * Two loads compared in the order A, B, B, A, each side's figure the mean of its two: a machine getting busier or
 * quieter during the comparison weighs on both sides alike (a linear drift cancels out).
 */
import type { Load } from './load.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Two loads of one side as one figure: their mean rate, the worse percentiles, the sums of the counts. */
export function mean(a: Load, b: Load): Load {
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

/** Runs side `a`, `b`, `b`, `a` (each named for the log), and returns each side's mean. */
export async function abba(
  a: [name: string, load: () => Promise<Load>],
  b: [name: string, load: () => Promise<Load>],
): Promise<{ a: Load; b: Load }> {
  const runs: Load[] = [];
  for (const [name, load] of [a, b, b, a]) {
    log(name);
    runs.push(await load());
  }
  return { a: mean(runs[0]!, runs[3]!), b: mean(runs[1]!, runs[2]!) };
}
