/**
 * `node bench/memory.ts [variant…]`: where the API server's resident memory goes, and what a lever saves and costs.
 * Each variant is a fresh Plinth started as `npm start` starts it (bench/lib/plinth.ts), on an empty SQLite database
 * with the request log on, loaded with creates then retrieves (BENCH_SECONDS each, BENCH_CONNECTIONS). Its
 * /proc/<pid>/smaps is read every 200 ms: the report gives its peak (VmHWM), idle RSS after start-up, the breakdown of
 * the largest sample by kind of mapping, and the server's CPU ms per create and per retrieve.
 *
 * A variant is a name, then node flags (`--…`) and environment (`NAME=value`), space-separated, e.g.
 *   node bench/memory.ts base 'arena2 MALLOC_ARENA_MAX=2' 'pool2 --v8-pool-size=2'
 * (no variant: `base` alone). Every variant starts from npm start's own flags and environment: `NAME=` (empty) takes
 * a variable back to its default, e.g. 'default MALLOC_ARENA_MAX=' against 'shipped'. With MEMORY_ROUNDS=n (default 2) the variants run n times, in turn and in reverse turn
 * (ABBA for two), so that a machine getting busier or quieter weighs on each alike. MEMORY_PROBE=1 preloads
 * bench/lib/memory-probe.mjs (V8's heap spaces and process.memoryUsage() at the peak; a diagnosis, not the server as
 * it ships).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchCpu } from './lib/cpu.ts';
import { loadCreate, loadGet } from './lib/load.ts';
import { createOne, startPlinth } from './lib/plinth.ts';
import { peakRssMiB, rssMiB, serverPid, stop } from './lib/process.ts';

const MiB = 1024 * 1024;
const ROUNDS = Number(process.env.MEMORY_ROUNDS ?? 2);
const PROBE = process.env.MEMORY_PROBE === '1';

interface Variant {
  name: string;
  flags: string[];
  env: Record<string, string>;
}

function parseVariant(text: string): Variant {
  const [name, ...tokens] = text.trim().split(/\s+/);
  const flags = tokens.filter((t) => t.startsWith('--'));
  const env = Object.fromEntries(
    tokens.filter((t) => !t.startsWith('--')).map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)]),
  );
  return { name: name!, flags, env };
}

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rss: number;
  anonymous: number;
}

function readSmaps(pid: number): Mapping[] {
  const maps: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = {
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3]!,
        path: head[4] ?? '',
        rss: 0,
        anonymous: 0,
      };
      maps.push(current);
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    if (field && current) current[field[1] === 'Rss' ? 'rss' : 'anonymous'] = Number(field[2]) * 1024;
  }
  return maps;
}

const ARENA = 64n * BigInt(MiB);

/**
 * The kind of each mapping: the node binary, other files, malloc's main heap, a thread's malloc arena (glibc aligns
 * them to 64 MiB, a read-write part followed by its reserved rest), a thread's stack (read-write just above a
 * 4 KiB guard), and the rest of the anonymous memory (V8's heap and code, wasm, mmap'd large mallocs).
 */
function classify(maps: Mapping[]): Record<string, number> {
  const sums: Record<string, number> = {};
  const add = (kind: string, bytes: number) => {
    sums[kind] = (sums[kind] ?? 0) + bytes;
  };
  maps.forEach((m, i) => {
    const before = maps[i - 1];
    if (m.path.endsWith('/node')) add('node binary (file)', m.rss);
    else if (m.path === '[heap]') add('malloc main arena ([heap])', m.rss);
    else if (m.path === '[stack]') add('main stack', m.rss);
    else if (m.path.startsWith('/')) add(m.path.includes('.so') ? 'shared libraries (file)' : 'other files', m.rss);
    else if (m.path.startsWith('[')) add(m.path, m.rss);
    else if (m.perms.startsWith('rw') && m.start % ARENA === 0n && m.end - m.start <= ARENA)
      add('malloc thread arenas', m.rss);
    else if (
      m.perms.startsWith('rw') &&
      before?.perms.startsWith('---') &&
      before.end === m.start &&
      before.end - before.start === 4096n
    )
      add('thread stacks', m.rss);
    else add('other anonymous (V8 heap and code, wasm, large mallocs)', m.rss);
  });
  return sums;
}

interface Run {
  variant: string;
  idleMiB: number;
  peakMiB: number;
  largest: { total: number; kinds: Record<string, number> };
  cpuPerCreate: number;
  cpuPerRetrieve: number;
  createRps: number;
  retrieveRps: number;
  pressure: number | null;
  probe: unknown;
}

async function measure(variant: Variant, dir: string, round: number): Promise<Run> {
  const name = `${variant.name}-${round}`;
  const probeFile = join(dir, `${name}.memory.json`);
  const server = await startPlinth({
    databaseUrl: `sqlite:${join(dir, `${name}.db`)}`,
    dir,
    name,
    env: { ...variant.env, ...(PROBE ? { MEMORY_PROBE_OUT: probeFile } : {}) },
    nodeFlags: [...variant.flags, ...(PROBE ? ['--import', './bench/lib/memory-probe.mjs'] : [])],
  });
  const pid = serverPid(server);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleMiB = rssMiB(pid);
    let largest = { total: 0, kinds: {} as Record<string, number> };
    const sample = () => {
      try {
        const maps = readSmaps(pid);
        const total = maps.reduce((sum, m) => sum + m.rss, 0);
        if (total > largest.total) largest = { total, kinds: classify(maps) };
      } catch {
        // it exited
      }
    };
    const timer = setInterval(sample, 200);
    const id = await createOne(server);
    const createCpu = await watchCpu(pid);
    const create = await loadCreate(server.port, server.authorization);
    const cpuPerCreate = (await createCpu(create.ok)).server;
    const retrieveCpu = await watchCpu(pid);
    const retrieve = await loadGet(server.port, `/v1/fintech/accounts/${id}`, server.authorization);
    const cpuPerRetrieve = (await retrieveCpu(retrieve.ok)).server;
    clearInterval(timer);
    sample();
    const peakMiB = peakRssMiB(pid);
    let probe: unknown = null;
    try {
      if (PROBE) probe = JSON.parse(readFileSync(probeFile, 'utf8'));
    } catch {
      // no figures written
    }
    const pressures = [create.pressure.cpu, retrieve.pressure.cpu].filter((p) => p !== null);
    return {
      variant: variant.name,
      idleMiB,
      peakMiB,
      largest,
      cpuPerCreate,
      cpuPerRetrieve,
      createRps: create.rps,
      retrieveRps: retrieve.rps,
      pressure: pressures.length === 0 ? null : Math.max(...pressures),
      probe,
    };
  } finally {
    await stop(server);
  }
}

const variants = (process.argv.length > 2 ? process.argv.slice(2) : ['base']).map(parseVariant);
const dir = mkdtempSync(join(tmpdir(), 'plinth-memory-'));
const runs: Run[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const run = await measure(variant, dir, round);
      runs.push(run);
      const mib = (bytes: number) => (bytes / MiB).toFixed(1);
      const kinds = Object.entries(run.largest.kinds)
        .sort((a, b) => b[1] - a[1])
        .filter(([, bytes]) => bytes >= 0.5 * MiB)
        .map(([kind, bytes]) => `    ${mib(bytes).padStart(6)}  ${kind}`)
        .join('\n');
      process.stdout.write(
        `${run.variant} (round ${round + 1}): peak ${run.peakMiB} MiB, idle ${run.idleMiB} MiB; CPU ms per create ` +
          `${run.cpuPerCreate.toFixed(3)} (${run.createRps.toFixed(0)}/s), per retrieve ${run.cpuPerRetrieve.toFixed(3)} ` +
          `(${run.retrieveRps.toFixed(0)}/s); CPU pressure ${run.pressure === null ? '?' : `${Math.round(run.pressure * 100)}%`}\n` +
          `  largest sample ${mib(run.largest.total)} MiB:\n${kinds}\n` +
          (run.probe === null ? '' : `  probe at its peak: ${JSON.stringify(run.probe)}\n`),
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write('\nvariant: peak MiB each round; CPU ms per create, per retrieve each round\n');
for (const variant of variants) {
  const mine = runs.filter((r) => r.variant === variant.name);
  process.stdout.write(
    `${variant.name.padEnd(16)} ${mine.map((r) => r.peakMiB).join(' / ')} MiB; ` +
      `${mine.map((r) => r.cpuPerCreate.toFixed(3)).join(' / ')}; ${mine.map((r) => r.cpuPerRetrieve.toFixed(3)).join(' / ')}\n`,
  );
}
