/**
 * The instruction counts of issue 44 inside `npm run bench`: `bench/instructions.ts` (valgrind) counting a create and
 * a retrieve, run twice, so that RESULTS.md shows both the figures and whether two runs of the same code agree.
 * Valgrind is slow (a few minutes per count): `BENCH_INSTRUCTIONS=off` leaves the phase out, and so does a machine
 * without valgrind, each with a line saying so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const INSTRUCTION_LOADS = ['create', 'retrieve'] as const;
export type InstructionLoad = (typeof INSTRUCTION_LOADS)[number];

/** Instructions per request of each load, one record per run. */
export type InstructionResults = { skipped: string } | { runs: Record<InstructionLoad, number>[] };

const RUNS = 2;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function oneRun(): Promise<Record<InstructionLoad, number>> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../instructions.ts', import.meta.url))], {
    env: { ...process.env, LOADS: INSTRUCTION_LOADS.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`bench/instructions.ts exited with ${code}:\n${out.slice(-2000)}`);
  const per = (load: InstructionLoad) => {
    const found = new RegExp(`^${load}: (\\d+)k instructions per request$`, 'm').exec(out);
    if (found === null) throw new Error(`bench/instructions.ts printed no count for ${load}:\n${out.slice(-2000)}`);
    return Number(found[1]) * 1000;
  };
  return { create: per('create'), retrieve: per('retrieve') };
}

export async function instructionsPhase(): Promise<InstructionResults> {
  if (process.env.BENCH_INSTRUCTIONS === 'off') return { skipped: 'BENCH_INSTRUCTIONS=off' };
  if (spawnSync('valgrind', ['--version']).status !== 0) return { skipped: 'valgrind is not installed' };
  const runs: Record<InstructionLoad, number>[] = [];
  for (let i = 1; i <= RUNS; i++) {
    log(`instructions per create and per retrieve (valgrind), run ${i} of ${RUNS}`);
    runs.push(await oneRun());
  }
  return { runs };
}

/** How far apart the runs are: (most − least) / least. */
export function spread(values: number[]): number {
  return (Math.max(...values) - Math.min(...values)) / Math.min(...values);
}
