/**
 * One benchmark line: `bank import` of a generated 100,000-line statement on SQLite (docs/deploy.md, "Statements
 * in"): 90% credits to a live account number (each an inbound payment), 10% fees (exceptions). Prints the seconds
 * the command took, start-up and migrations included.
 *
 *   npm run bench:bank-import            # BENCH_LINES=100000 by default
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCsv } from '../src/products/fintech/bank/statements/csv.ts';
import type { StatementLine } from '../src/products/fintech/bank/statements/statement.ts';
import { money } from '../test/helpers/money.ts';
import { run } from '../test/helpers/process.ts';
import { startServer } from '../test/helpers/server.ts';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const ROUTING = '021000021';

const server = await startServer({ BANK_ROUTING_NUMBER: ROUTING });
const m = money(server.url, await server.key('bench', 'live'));
const account = await m.account();
const known = await m.post('/v1/fintech/account_numbers', { account_id: account, name: 'Main' });
const lines: StatementLine[] = Array.from({ length: LINES }, (_, i) => {
  const fee = i % 10 === 0;
  return {
    reference: `B${i}`,
    date: '2026-12-01',
    direction: fee ? 'debit' : 'credit',
    amount: 100,
    kind: fee ? 'fee' : 'credit',
    accountNumber: fee ? null : known.account_number,
    traceNumber: null,
    returnCode: null,
    counterparty: 'Globex',
    description: null,
  };
});
const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amount : -l.amount), 0);
const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-bank-'));
const path = join(dir, 'statement.csv');
writeFileSync(
  path,
  writeCsv({ format: 'csv', account: 'B', currency: 'USD', date: '2026-12-01', opening: 0, closing, lines }),
);
await server.app.close();
const started = performance.now();
const result = await run(['src/cli/main.ts', 'bank', 'import', path], {
  DATABASE_URL: server.databaseUrl,
  BANK_ROUTING_NUMBER: ROUTING,
});
const seconds = (performance.now() - started) / 1000;
await server.database.close();
rmSync(dir, { recursive: true, force: true });
if (result.code !== 0) throw new Error(`bank import failed (${result.code}): ${result.stderr}`);
process.stdout.write(`bank import, ${LINES} lines (SQLite): ${seconds.toFixed(1)} s\n`);
