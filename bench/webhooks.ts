/**
 * `npm run bench:webhooks` (issues 33 and 44): on SQLite, a create load of BENCH_SECONDS (20) at BENCH_CONNECTIONS
 * (32) without any endpoint; then creates paced at half its rate (BENCH_RATE: another rate) with one endpoint enabled
 * for every event and a local receiver answering 200 at once, each event timed from its create's answer to its
 * arrival; then the unpaced load with the endpoint. Prints the paced load's deliveries during it and lag, creates with
 * the endpoint vs without (same run), the events delivered during the saturating load, how fast the rest drained, and
 * each load's CPU and I/O pressure (a shared machine's noise). BENCH_WEBHOOKS=paced runs the paced load only (at
 * BENCH_RATE, else after the plain load). Only these loads: `npm run bench` runs everything.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.BENCH_SECONDS ??= '20';
const { CONNECTIONS, SECONDS, loadCreate } = await import('./lib/load.ts');
const { startPlinth } = await import('./lib/plinth.ts');
const { stop } = await import('./lib/process.ts');
const { deliverySettings, pacedLines, webhookPacedPhase, webhookPhase } = await import('./phases/webhooks.ts');

const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-webhooks-'));
const pct = (share: number | null) => (share === null ? 'n/a' : `${(share * 100).toFixed(0)}%`);
const say = (text: string) => process.stdout.write(`${text}\n`);
try {
  const pacedOnly = process.env.BENCH_WEBHOOKS === 'paced';
  say(
    `load average at the start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  let rate = Number(process.env.BENCH_RATE ?? 0);
  let without: Awaited<ReturnType<typeof loadCreate>> | undefined;
  if (rate === 0 || !pacedOnly) {
    const plain = await startPlinth({ databaseUrl: `sqlite:${join(dir, 'plain.db')}`, dir, name: 'sqlite-plain' });
    without = await loadCreate(plain.port, plain.authorization).finally(() => stop(plain));
    if (rate === 0) rate = Math.round(without.rps / 2);
  }
  const paced = await webhookPacedPhase(dir, rate);
  say(pacedLines(paced).join('\n'));
  say(
    `load average now: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  if (pacedOnly || without === undefined) process.exit(0);
  const hooks = await webhookPhase(dir);
  const ratio = hooks.create.rps / without.rps;
  const share = hooks.deliveredDuringLoad / hooks.events;
  const drained = hooks.drainSeconds === null ? 'not within 120 s' : `${hooks.drainSeconds.toFixed(1)} s`;
  const lines = [
    `SQLite, ${SECONDS} s create loads at ${CONNECTIONS} connections, delivery settings ` +
      `${JSON.stringify(deliverySettings())} (the rest default)`,
    `creates without an endpoint: ${without.rps.toFixed(0)} req/s, p99 ${without.p99} ms ` +
      `(CPU pressure ${pct(without.pressure.cpu)}, I/O ${pct(without.pressure.io)})`,
    `creates with one endpoint:   ${hooks.create.rps.toFixed(0)} req/s, p99 ${hooks.create.p99} ms, ` +
      `${hooks.create.non2xx} non-2xx (CPU pressure ${pct(hooks.create.pressure.cpu)}, ` +
      `I/O ${pct(hooks.create.pressure.io)})`,
    `creates with vs without: ${ratio.toFixed(2)}× (wanted ≥ 0.6×)`,
    `events delivered during the load / made: ${hooks.deliveredDuringLoad} / ${hooks.events} = ` +
      `${share.toFixed(3)} (wanted ≥ 0.9); ${hooks.deliveredPerSecond.toFixed(0)} deliveries/s`,
    `the rest drained after the load in: ${drained} (wanted ≤ 5 s)` +
      (hooks.drainPerSecond === null ? '' : `, ${hooks.drainPerSecond.toFixed(0)} deliveries/s`),
    `load average now: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
