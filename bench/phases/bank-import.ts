/**
 * What a bank statement's import costs (issue 42: a statement of 100,000 lines imports and matches in under 60 s on
 * SQLite): one fresh Plinth on SQLite with one live account number, a generated CSV statement of BENCH_BANK_LINES
 * (100,000) lines, 90% credits to that number (each an inbound payment, with its events) and 10% fees (each an
 * exception), then `bank import` of it timed as the operator runs it (docs/deploy.md, "Statements in"): the CLI's
 * start-up and migrations included, the server stopped. The baseline of the same run: the same server receiving
 * sandbox inbound payments (the same ledger operation) through the API, 32 requests in flight; and the bare reading
 * and checking of the file, in this process.
 *
 *   npm run bench:bank-import            # this phase alone (BENCH_BANK_LINES=2000 for a quick look)
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeCsv } from '../../src/products/fintech/bank/statements/csv.ts';
import { readStatement } from '../../src/products/fintech/bank/statements/read.ts';
import type { StatementLine } from '../../src/products/fintech/bank/statements/statement.ts';
import { createKey, otherRssPeaks, PLINTH_ROOT, type Plinth, recordPeakRss, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';
import type { Target } from '../lib/report.ts';

const WANTED_SECONDS = 60;
const ROUTING = '021000021';
const IN_FLIGHT = 32;

export interface BankImportResults {
  lines: number;
  /** `bank import`, start to exit. */
  seconds: number;
  /** Lines the import reported new (all of them on a fresh database). */
  added: number;
  /** Reading and checking the same file in this process (`readStatement`), seconds. */
  parseSeconds: number;
  /** Sandbox inbound payments made through the API by the same server, per second. */
  apiPerSecond: number;
}

async function call(
  server: Plinth,
  authorization: string,
  path: string,
  body: unknown,
): Promise<{ [k: string]: unknown }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { [k: string]: unknown };
}

/** An account of the key's org with one account number: its 12 digits. */
async function accountNumber(server: Plinth, authorization: string): Promise<string> {
  const account = await call(server, authorization, '/v1/fintech/accounts', { type: 'business', country: 'US' });
  const number = await call(server, authorization, '/v1/fintech/account_numbers', {
    account_id: account.id,
    name: 'Bench',
  });
  return String(number.account_number);
}

/** The statement: `lines` lines of one day, every tenth a fee, the rest credits of 1.00 to `number`. */
function statementText(lines: number, number: string): string {
  const list: StatementLine[] = Array.from({ length: lines }, (_, i) => {
    const fee = i % 10 === 0;
    return {
      reference: `B${i}`,
      date: '2026-12-01',
      direction: fee ? 'debit' : 'credit',
      amount: 100,
      kind: fee ? 'fee' : 'credit',
      accountNumber: fee ? null : number,
      traceNumber: null,
      returnCode: null,
      counterparty: 'Globex',
      description: null,
    };
  });
  const closing = list.reduce((s, l) => s + (l.direction === 'credit' ? l.amount : -l.amount), 0);
  return writeCsv({
    format: 'csv',
    account: 'B',
    currency: 'USD',
    date: '2026-12-01',
    opening: 0,
    closing,
    lines: list,
  });
}

export async function bankImportPhase(
  dir: string,
  lines = Number(process.env.BENCH_BANK_LINES ?? 100_000),
): Promise<BankImportResults> {
  const databaseUrl = `sqlite:${join(dir, 'bank-import.db')}`;
  const env = { BANK_ROUTING_NUMBER: ROUTING };
  const server = await startPlinth({ databaseUrl, dir, name: 'bank-import', env });
  let apiPerSecond: number;
  let number: string;
  try {
    // The baseline: sandbox inbound payments, one ledger operation each as a matched credit line is.
    const sandboxNumber = await accountNumber(server, server.authorization);
    const requests = Math.min(5_000, lines);
    const payment = { account_number: sandboxNumber, amount: 100, rail: 'ach', direction: 'credit' };
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < requests)
          await call(server, server.authorization, '/v1/sandbox/fintech/inbound_payments', {
            ...payment,
            originator_name: 'Globex',
          });
      }),
    );
    apiPerSecond = requests / ((performance.now() - started) / 1000);
    const live = `Bearer ${createKey({ DATABASE_URL: databaseUrl, ...env }, 'bench', 'live')}`;
    number = await accountNumber(server, live);
  } finally {
    await stop(server);
  }
  const text = statementText(lines, number);
  const path = join(dir, 'bank-import.csv');
  writeFileSync(path, text);
  const parsing = performance.now();
  readStatement(text);
  const parseSeconds = (performance.now() - parsing) / 1000;
  const started = performance.now();
  const importing = promisify(execFile)(process.execPath, ['src/cli/main.ts', 'bank', 'import', path], {
    cwd: PLINTH_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
    maxBuffer: 1 << 30,
  });
  recordPeakRss(importing.child, importing.child.pid!, 'bank import (the CLI)', otherRssPeaks);
  const { stdout } = await importing;
  const seconds = (performance.now() - started) / 1000;
  const summary = stdout.match(/^[0-9-]+: ([0-9]+) lines, ([0-9]+) new;/);
  if (summary === null) throw new Error(`bank import printed no summary: ${stdout.slice(0, 500)}`);
  return { lines, seconds, added: Number(summary[2]), parseSeconds, apiPerSecond };
}

export function bankImportTargets(r: BankImportResults | null): Target[] {
  if (r === null) return [];
  const perSecond = r.lines / r.seconds;
  return [
    {
      name:
        `SQLite bank import of a ${r.lines.toLocaleString('en')}-line statement (90% credits → inbound payments, ` +
        '10% fees → exceptions; CLI start-up included)',
      target: `< ${WANTED_SECONDS} s`,
      measured:
        `${r.seconds.toFixed(1)} s, ${perSecond.toFixed(0)} lines/s (the same run: the server received inbound ` +
        `payments through the API at ${r.apiPerSecond.toFixed(0)} req/s, ${(perSecond / r.apiPerSecond).toFixed(2)}× ` +
        `that rate; reading and checking the file alone took ${r.parseSeconds.toFixed(2)} s, ` +
        `${((r.parseSeconds / r.seconds) * 100).toFixed(1)}% of the import)`,
      pass: r.seconds < WANTED_SECONDS && r.added === r.lines,
      loads: [],
    },
  ];
}

/** `npm run bench:bank-import` (`node bench/phases/bank-import.ts`): this phase alone. */
if (import.meta.main) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-bank-'));
  try {
    const results = await bankImportPhase(dir);
    for (const t of bankImportTargets(results))
      process.stdout.write(`${t.name}: ${t.measured} (wanted ${t.target}) ${t.pass ? 'pass' : 'FAIL'}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
