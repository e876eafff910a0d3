/**
 * What a sandbox clock advance costs (issue 41: an advance over 10,000 due items finishes in under 10 s on SQLite):
 * one fresh Plinth on SQLite, 5,000 ACH payments out of one account (each has two steps due: its submission at the
 * cut-off and its settlement the next business day), then one `POST /v1/sandbox/clock/advance` a week ahead, timed
 * from request to answer (the answer comes once everything due has run). The payments are made with 32 requests in
 * flight; their rate is printed beside it as the baseline of the same run.
 */
import { join } from 'node:path';
import { createOne, depositInto, type Plinth, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';
import type { Target } from '../lib/report.ts';

const PAYMENTS = 5_000;
const DUE = PAYMENTS * 2;
const WANTED_SECONDS = 10;

export interface ClockResults {
  items: number;
  seconds: number;
  paymentsPerSecond: number;
  settled: number;
}

async function call(server: Plinth, method: string, path: string, body?: unknown): Promise<{ [k: string]: unknown }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status !== 200)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { [k: string]: unknown };
}

export async function clockPhase(dir: string): Promise<ClockResults> {
  const server = await startPlinth({ databaseUrl: `sqlite:${join(dir, 'clock.db')}`, dir, name: 'clock' });
  try {
    const account = await createOne(server);
    await depositInto(server, account, 1_000_000_000_000);
    const external = await call(server, 'POST', '/v1/fintech/external_accounts', {
      routing_number: '021000021',
      account_number: '000123456789',
      account_holder_name: 'Bench Payee',
      account_type: 'checking',
    });
    const payment = { account_id: account, external_account_id: external.id, amount: 1, currency: 'USD', rail: 'ach' };
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next++ < PAYMENTS) await call(server, 'POST', '/v1/fintech/payments', payment);
      }),
    );
    const paymentsPerSecond = PAYMENTS / ((performance.now() - started) / 1000);
    const clock = await call(server, 'GET', '/v1/sandbox/clock');
    const to = new Date(Date.parse(String(clock.now)) + 7 * 86_400_000).toISOString();
    const before = performance.now();
    await call(server, 'POST', '/v1/sandbox/clock/advance', { to });
    const seconds = (performance.now() - before) / 1000;
    const settled = await call(server, 'GET', '/v1/fintech/payments?status=settled&limit=100');
    return { items: DUE, seconds, paymentsPerSecond, settled: (settled.data as unknown[]).length };
  } finally {
    await stop(server);
  }
}

export function clockTargets(r: ClockResults | null): Target[] {
  if (r === null) return [];
  return [
    {
      name: `SQLite sandbox clock advance over ${r.items.toLocaleString('en')} due items (5,000 ACH payments: submission, settlement)`,
      target: `< ${WANTED_SECONDS} s`,
      measured:
        `${r.seconds.toFixed(2)} s, ${(r.items / r.seconds).toFixed(0)} items/s ` +
        `(the same run made payments at ${r.paymentsPerSecond.toFixed(0)} req/s: ` +
        `${(r.items / r.seconds / r.paymentsPerSecond).toFixed(2)}× that rate)`,
      pass: r.seconds < WANTED_SECONDS && r.settled === 100,
      loads: [],
    },
  ];
}

/** `node bench/phases/clock.ts`: this phase alone. */
if (import.meta.main) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-clock-'));
  try {
    const results = await clockPhase(dir);
    for (const t of clockTargets(results))
      process.stdout.write(`${t.name}: ${t.measured} (wanted ${t.target}) ${t.pass ? 'pass' : 'FAIL'}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
