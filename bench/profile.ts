/**
 * `npm run bench:profile`: one CPU profile (node --cpu-prof) of Plinth on SQLite under the create load of the
 * benchmark (fresh Idempotency-Key per request, info logging to a file), summarised by category, owner and
 * function into bench/PROFILE-create.md. BENCH_PROFILE_LOAD=retrieve, =transfer or =reverse (reversals of 1 of one
 * large transfer) profiles that load instead.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarise, summaryLines } from './lib/cpuprofile.ts';
import { CONNECTIONS, loadCreate, loadGet, loadReversals, loadTransfer, SECONDS } from './lib/load.ts';
import { createOne, depositInto, probe, startPlinth, transferOne } from './lib/plinth.ts';
import { stop } from './lib/process.ts';

const pct = (share: number | undefined) => (share === undefined ? '?' : `${(share * 100).toFixed(1)}%`);
const which =
  (['retrieve', 'transfer', 'reverse'] as const).find((l) => l === process.env.BENCH_PROFILE_LOAD) ?? 'create';
const dir = mkdtempSync(join(tmpdir(), 'plinth-profile-'));
const file = join(dir, 'server.cpuprofile');
try {
  const server = await startPlinth({
    databaseUrl: `sqlite:${join(dir, 'plinth.db')}`,
    dir,
    name: 'profiled',
    probe: true,
    env: { BENCH_PROBE_CPU_PROFILE: file },
  });
  const id = await createOne(server);
  const to = await createOne(server);
  if (which === 'transfer' || which === 'reverse') await depositInto(server, id, 1_000_000_000_000);
  const reversed = which === 'reverse' ? await transferOne(server, id, to, 1_000_000_000) : '';
  await probe(server, dir, 'profiled'); // starts the profiler
  const load =
    which === 'create'
      ? await loadCreate(server.port, server.authorization)
      : which === 'transfer'
        ? await loadTransfer(server.port, server.authorization, id, to)
        : which === 'reverse'
          ? await loadReversals(server.port, server.authorization, reversed)
          : await loadGet(server.port, `/v1/fintech/accounts/${id}`, server.authorization);
  const figures = await probe(server, dir, 'profiled'); // stops it and writes the profile
  await stop(server);
  if (!existsSync(file)) throw new Error('the server wrote no CPU profile');
  const lines = [
    `# CPU profile of Plinth (SQLite) under the ${which} load`,
    '',
    `Written by \`npm run bench:profile\`, ${new Date().toISOString().slice(0, 16)}Z, Node ${process.versions.node}: ` +
      `${CONNECTIONS} connections for ${SECONDS} s, ${load.rps.toFixed(0)} req/s while profiled (the profiler ` +
      "itself costs throughput; compare shares, not rates). Self time of the server's main thread during the load " +
      '(bench/probe.ts starts and stops the profiler around it). Time in a native call (node:sqlite, fs.writeSync) ' +
      'is charged to the JS function that made it.',
    '',
    `Probe during the same load: event loop utilisation ${pct(figures?.event_loop_utilisation)}, COMMIT ` +
      `${pct(figures?.commits.share)} of wall time (${figures?.commits.per_second.toFixed(0)} commits/s, ` +
      `${figures?.commits.mean_ms.toFixed(2)} ms each), node:sqlite statements ${pct(figures?.sqlite_statements.share)}.`,
    '',
    ...summaryLines(summarise(file)),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(new URL(`PROFILE-${which}.md`, import.meta.url), lines.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
