/**
 * Bank statements in (docs/deploy.md, "Statements in"): the same generated bank day as camt.053, BAI2 and CSV, each
 * imported into a deployment set up the same way, gives the same stored lines, payments, exceptions and balance proof
 * (byte for byte in --json, ids aside); importing again (in any format) adds nothing; a file whose control total or
 * balance is tampered is refused with exit 65 and nothing stored.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { bankDay, bankDayFiles } from '../../../scripts/bank-fixtures.ts';
import { writeCamt053 } from '../../../src/products/fintech/bank/statements/camt053.ts';
import { writeCsv } from '../../../src/products/fintech/bank/statements/csv.ts';
import { readStatement } from '../../../src/products/fintech/bank/statements/read.ts';
import type { Statement, StatementLine } from '../../../src/products/fintech/bank/statements/statement.ts';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { ROOT, run } from '../../helpers/process.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';

const ROUTING = '021000021';
const TRACES: [string, string, string] = ['021000020000001', '021000020000002', '021000020000003'];
const AMOUNTS: [number, number, number] = [6_000, 3_000, 1_500];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const TODAY = day(0);
const FILES = { camt053: 'statement.camt053.xml', bai2: 'statement.bai2', csv: 'statement.csv' } as const;
const FILES_ALL = { ...FILES, camt053_08: 'statement.camt053-08.xml' };

const dir = mkdtempSync(join(tmpdir(), 'plinth-bank-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A statement of one day as CSV, in a file. */
function csvDay(name: string, statement: Omit<Statement, 'format' | 'account' | 'currency'>): string {
  const path = join(dir, name);
  writeFileSync(path, writeCsv({ ...statement, format: 'csv', account: 'OMNIBUS-0001', currency: 'USD' }));
  return path;
}

/**
 * A live deployment with one org: an account funded by a first statement's credit, a disabled number, and three
 * live ACH payments out, submitted with the trace numbers of the fixture (set in the database, as the NACHA export
 * does), the third settled by a second day's statement. Returns what the fixture day needs.
 */
async function deployment() {
  const server = await startServer({ BANK_ROUTING_NUMBER: ROUTING });
  const env = { DATABASE_URL: server.databaseUrl, BANK_ROUTING_NUMBER: ROUTING };
  const cli = (...args: string[]) => run(['src/cli/main.ts', ...args], env);
  const key = await server.key('bank-org', 'live');
  const m = money(server.url, key);
  const account = await m.account();
  const known = await m.post('/v1/fintech/account_numbers', { account_id: account, name: 'Main' });
  const disabled = await m.post('/v1/fintech/account_numbers', { account_id: account, name: 'Old' });
  await m.post(`/v1/fintech/account_numbers/${disabled.id}`, { status: 'disabled' });
  const line = { date: day(-2), returnCode: null, traceNumber: null, counterparty: 'Globex', description: null };
  const funded = await cli(
    'bank',
    'import',
    csvDay(`fund-${server.databaseUrl.length}-${Math.random()}.csv`, {
      date: day(-2),
      opening: 0,
      closing: 100_000,
      lines: [
        {
          ...line,
          reference: `F${Math.random()}`,
          direction: 'credit',
          amount: 100_000,
          kind: 'credit',
          accountNumber: known.account_number,
        },
      ],
    }),
  );
  assert.equal(funded.code, 0, funded.stderr);
  const external = await m.post('/v1/fintech/external_accounts', {
    routing_number: '021000021',
    account_number: '000123456789',
    account_holder_name: 'Acme Supplies LLC',
    account_type: 'checking',
  });
  const payments: string[] = [];
  for (const [i, amount] of AMOUNTS.entries()) {
    const payment = await m.post('/v1/fintech/payments', {
      account_id: account,
      external_account_id: external.id,
      amount,
      currency: 'USD',
      rail: 'ach',
    });
    assert.equal(payment.status, 'pending_submission');
    await server.database.write(async (trx) => {
      await trx
        .updateTable('payments')
        .set({ status: 'submitted', trace_number: TRACES[i]!, submitted_at: new Date().toISOString() })
        .where('id', '=', payment.id)
        .execute();
    });
    payments.push(payment.id);
  }
  const settled = await cli(
    'bank',
    'import',
    csvDay(`settle-${Math.random()}.csv`, {
      date: day(-1),
      opening: 100_000,
      closing: 100_000 - AMOUNTS[2],
      lines: [
        {
          ...line,
          date: day(-1),
          reference: `S${Math.random()}`,
          direction: 'debit',
          amount: AMOUNTS[2],
          kind: 'ach_settlement',
          accountNumber: null,
          traceNumber: TRACES[2],
          counterparty: null,
        },
      ],
    }),
  );
  assert.equal(settled.code, 0, settled.stderr);
  const files = bankDayFiles(
    bankDay({
      date: TODAY,
      opening: 100_000 - AMOUNTS[2],
      known: known.account_number,
      disabled: disabled.account_number,
      unknown: '999999999999',
      traces: TRACES,
      tracedAmounts: AMOUNTS,
    }),
  );
  const paths = {} as Record<string, string>;
  for (const [name, text] of Object.entries(files)) {
    paths[name] = join(dir, `${Math.random()}-${name}`);
    writeFileSync(paths[name]!, text);
  }
  return { server, env, cli, m, account, known: known.account_number as string, payments, paths };
}

/**
 * Ids replaced by their order of first appearance, times and account numbers' last four digits masked: what differs
 * between deployments by nature (each draws its own).
 */
function normalized(text: string): string {
  const seen = new Map<string, string>();
  return text
    .replace(/\b(acct|bsl|pay|an|tr|txn|trr|ea|bst)_[0-9A-Za-z]+/g, (id) => {
      if (!seen.has(id)) seen.set(id, `${id.split('_')[0]}_#${seen.size + 1}`);
      return seen.get(id)!;
    })
    .replace(/••••[0-9]{4}/g, '••••####')
    .replace(/"(resolved_at|ledger_at|created_at|settled_at|submitted_at|returned_at)": "[^"]*"/g, '"$1": "<time>"');
}

const rows = async (server: TestServer, table: 'bank_statement_lines' | 'bank_exceptions' | 'bank_statements') =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(server.database.db)).rows[0]!.n,
  );

/**
 * A named pipe opened for writing once its reader has it open: polled without blocking (a blocking open would hold a
 * thread for ever if the reader died first), then opened again blocking, which now returns at once. The first end
 * stays open until the second is, so that the reader never sees the pipe without a writer (an end of file).
 */
async function writerOf(path: string, ended: () => string | null): Promise<FileHandle> {
  for (;;) {
    const failed = ended();
    if (failed !== null) throw new Error(`the import ended before reading ${path}: ${failed}`);
    try {
      const probe = await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
      const end = await open(path, 'w');
      await probe.close();
      return end;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error; // ENXIO: no reader yet
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

type Deployment = Awaited<ReturnType<typeof deployment>>;

/** The turn imports take a write at a time (src/products/fintech/bank/statements/import.ts). */
const IMPORT_TURN = 'bank_import';

/** PostgreSQL: how many transactions wait for the imports' turn now. */
async function waitingForTurn(d: Deployment): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from pg_locks
    where locktype = 'advisory' and not granted
      and (classid::bigint << 32) + objid::bigint = hashtextextended(${IMPORT_TURN}, 0)`.execute(d.server.database.db);
  return Number(rows[0]!.n);
}

/**
 * Two `bank import --json` processes on one database at once, the first of `texts[0]`, the second of `texts[1]`.
 * Each reads its statement from a named pipe that is filled only once both processes have opened theirs: whatever
 * their start-up took, both read, check and import from the same moment. On PostgreSQL the test also holds the
 * imports' turn until both processes wait for it, so both are inside the import at once: a fact, not a likelihood.
 * (SQLite has no turn to watch: one writer at a time, each waiting in SQLite's busy handler.)
 */
async function importsAtOnce(d: Deployment, texts: [string, string]) {
  const pipes = texts.map((_, i) => {
    const path = join(dir, `race-${Math.random()}-${i}`);
    execFileSync('mkfifo', [path]);
    return path;
  });
  const ended: (string | null)[] = [null, null];
  let runs: Promise<{ code: number | null; stdout: string; stderr: string }>[] = [];
  const start = async () => {
    runs = pipes.map((path, i) =>
      d.cli('bank', 'import', path, '--json').then((r) => {
        ended[i] = `exit ${r.code}: ${r.stderr}`;
        return r;
      }),
    );
    const ends = await Promise.all(pipes.map((path, i) => writerOf(path, () => ended[i]!)));
    await Promise.all(
      ends.map(async (end, i) => {
        await end.writeFile(texts[i]!);
        await end.close();
      }),
    );
  };
  if (BACKEND === 'postgres')
    await d.server.database.write(async (trx) => {
      trx.takeTurn(IMPORT_TURN);
      await trx.selectFrom('bank_statements').select('id').limit(1).execute(); // the turn is taken by now
      await start();
      while ((await waitingForTurn(d)) < 2) {
        const failed = ended.find((e) => e !== null);
        if (failed !== undefined) throw new Error(`an import ended while the test held its turn: ${failed}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
  else await start();
  return Promise.all(runs);
}

/** `count` lines of one day: every tenth a fee (an exception), the rest credits to `known`, each its own amount. */
function raceLines(known: string, date: string, count: number, prefix: string): StatementLine[] {
  return Array.from({ length: count }, (_, i) => {
    const fee = i % 10 === 0;
    return {
      reference: `${prefix}${String(i).padStart(6, '0')}`,
      date,
      direction: fee ? 'debit' : 'credit',
      amount: 1_000_000 + i,
      kind: fee ? 'fee' : 'credit',
      accountNumber: fee ? null : known,
      traceNumber: null,
      returnCode: null,
      counterparty: 'Globex',
      description: null,
    };
  });
}

/**
 * After a race over `lines`: every line stored once; each credit one inbound payment (its amount is its own), each
 * fee one exception; the ledger verifies.
 */
async function assertAppliedOnce(d: Deployment, lines: StatementLine[], before: { lines: number; exceptions: number }) {
  assert.equal((await rows(d.server, 'bank_statement_lines')) - before.lines, lines.length, 'every line stored once');
  const credits = lines.filter((l) => l.kind === 'credit');
  const inbound = await sql<{ amount: number; n: number }>`select amount, count(*) as n from payments
    where direction = 'inbound' and mode = 'live' and amount >= 1000000 and amount < ${1_000_000 + lines.length}
    group by amount`.execute(d.server.database.db);
  assert.equal(inbound.rows.length, credits.length, 'each credit line made an inbound payment');
  assert.deepEqual(
    inbound.rows.filter((r) => Number(r.n) !== 1),
    [],
    'each credit line made exactly one',
  );
  assert.equal(
    (await rows(d.server, 'bank_exceptions')) - before.exceptions,
    lines.length - credits.length,
    'each fee one exception',
  );
  const verify = await d.cli('ledger', 'verify');
  assert.equal(verify.code, 0, verify.stdout);
}

type Imported = { lines: number; added: number; outcomes: { reference: string }[] };

describe(`bank statements in (${BACKEND})`, () => {
  const results: Record<string, string> = {};

  for (const format of ['camt053', 'bai2', 'csv'] as const)
    test(`the bank day as ${format}: matched, stored once, reconciled`, async () => {
      const d = await deployment();
      try {
        const file = d.paths[FILES[format]]!;
        const imported = await d.cli('bank', 'import', file, '--format', format, '--json');
        assert.equal(imported.code, 0, imported.stderr);
        const result = JSON.parse(imported.stdout);
        assert.equal(result.added, 8);
        assert.deepEqual(
          result.outcomes.map((o: { rule: string; payment_status: string | null }) => `${o.rule}:${o.payment_status}`),
          [
            'account_number:settled',
            'exception:null',
            'exception:null',
            'trace_number:settled',
            'trace_number:settled',
            'trace_number:returned',
            'trace_number:returned',
            'exception:null',
          ],
        );
        const [p1, p2, p3] = await Promise.all(d.payments.map((id) => d.m.get(`/v1/fintech/payments/${id}`)));
        assert.equal(p1.status, 'settled');
        assert.deepEqual([p2.status, p2.return_reason?.code], ['returned', 'R01'], 'settled, then returned: reversed');
        assert.deepEqual([p3.status, p3.return_reason?.code], ['returned', 'R03']);
        const inbound = (await d.m.get(`/v1/fintech/payments?account_id=${d.account}`)).data.find(
          (p: { direction: string; amount: number }) => p.direction === 'inbound' && p.amount === 125_000,
        );
        assert.equal(inbound?.status, 'settled', 'the credit is an inbound payment in the org’s API');
        assert.equal(inbound.originator_name, 'Globex Corporation');
        const balance = await d.m.get(`/v1/fintech/accounts/${d.account}`);
        assert.equal(balance.current_balance.amount, 100_000 - 1_500 + 125_000 - 6_000 + 1_500);

        // Again, and the same day in the other formats: nothing added, the same outcomes printed.
        for (const other of Object.values(FILES)) {
          const again = await d.cli('bank', 'import', d.paths[other]!, '--json');
          assert.equal(again.code, 0, again.stderr);
          assert.equal(JSON.parse(again.stdout).added, 0, `${other} again adds nothing`);
          const added = (text: string) => normalized(text).replace(/"added": [0-9]+/, '"added": …');
          assert.equal(added(again.stdout), added(imported.stdout), 'the same outcomes: what the matches made');
        }
        assert.equal(await rows(d.server, 'bank_statement_lines'), 10);

        const exceptions = await d.cli('bank', 'exceptions', '--json');
        assert.equal(exceptions.code, 0, exceptions.stderr);
        assert.deepEqual(
          JSON.parse(exceptions.stdout).map((e: { amount: number }) => e.amount),
          [4_200, 9_999, -2_500],
          'the disabled and unknown numbers’ credits, the fee',
        );
        const proof = await d.cli('bank', 'reconcile', '--date', TODAY, '--json');
        assert.equal(proof.code, 0, proof.stdout + proof.stderr);
        const parsed = JSON.parse(proof.stdout);
        assert.equal(parsed.difference, 4_200 + 9_999 - 2_500);
        assert.equal(parsed.explained, true);
        const verify = await d.cli('ledger', 'verify');
        assert.equal(verify.code, 0, verify.stdout);
        results[format] = normalized(
          [imported.stdout, exceptions.stdout, proof.stdout.replace(/"date": "[^"]*"/, '')].join('\n'),
        );

        // Resolving: the disabled number's credit to the account; the fee ignored. The proof then fails by the
        // unknown credit alone no more: it is still open, and still explains the difference.
        const [disabledCredit, , fee] = JSON.parse(exceptions.stdout);
        const toAccount = await d.cli(
          'bank',
          'resolve',
          disabledCredit.line,
          '--account',
          d.account,
          '--note',
          'old number',
        );
        assert.equal(toAccount.code, 0, toAccount.stderr);
        assert.equal(JSON.parse(toAccount.stdout).status, 'resolved');
        const ignored = await d.cli('bank', 'resolve', fee.line, '--ignore', '--note', 'bank fee, booked by hand');
        assert.equal(ignored.code, 0, ignored.stderr);
        const twice = await d.cli('bank', 'resolve', fee.line, '--ignore', '--note', 'again');
        assert.equal(twice.code, 1, 'an exception is resolved once');
        const after = JSON.parse((await d.cli('bank', 'reconcile', '--date', TODAY, '--json')).stdout);
        assert.equal(after.open_exceptions_sum, 9_999);
        assert.equal(after.difference, 9_999 - 2_500, 'the ignored fee is no longer explained');
        assert.equal(after.explained, false);
        assert.equal((await d.cli('bank', 'reconcile', '--date', TODAY)).code, 1);
      } finally {
        await d.server.close();
      }
    });

  test('the three formats give the same lines, payments, exceptions and proof, byte for byte (ids aside)', () => {
    assert.equal(Object.keys(results).length, 3, 'each format ran');
    assert.equal(results.bai2, results.camt053);
    assert.equal(results.csv, results.camt053);
  });

  test('a tampered control total or balance is refused whole: exit 65 naming it, nothing stored', async () => {
    const d = await deployment();
    try {
      const before = await rows(d.server, 'bank_statement_lines');
      const tamper = (name: string, from: RegExp, to: string) => {
        const path = join(dir, `tampered-${Math.random()}-${name}`);
        const text = readFileSync(d.paths[name]!, 'utf8');
        assert.match(text, from);
        writeFileSync(path, text.replace(from, to));
        return path;
      };
      const cases = [
        [tamper(FILES.bai2, /^49,(\d+)/m, '49,1$1'), /account trailer \(49\) control total/],
        [tamper(FILES.bai2, /^99,(\d+),1,(\d+)/m, '99,$1,1,9$2'), /file trailer \(99\) record count/],
        [
          tamper(
            FILES.camt053,
            /<Cd>CLBD<\/Cd><\/CdOrPrtry><\/Tp><Amt Ccy="USD">(\d+)/,
            '<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="USD">1$1',
          ),
          /balance mismatch/,
        ],
        [
          tamper(FILES.camt053, /<TtlCdtNtries><NbOfNtries>\d+/, '<TtlCdtNtries><NbOfNtries>99'),
          /TtlCdtNtries\/NbOfNtries/,
        ],
        [tamper('statement.camt053-08.xml', /camt\.053\.001\.08/, 'camt.053.001.09'), /namespace/],
        [tamper(FILES.csv, /closing_balance,,(\d+)/, 'closing_balance,,9$1'), /balance mismatch/],
      ] as const;
      for (const [path, message] of cases) {
        const refused = await d.cli('bank', 'import', path);
        assert.equal(refused.code, 65, `${path}: ${refused.stderr}`);
        assert.match(refused.stderr, message);
        assert.match(refused.stderr, /nothing stored/);
      }
      assert.equal(await rows(d.server, 'bank_statement_lines'), before, 'nothing stored');
      const untouched = await d.cli('bank', 'import', d.paths['statement.camt053-08.xml']!, '--json');
      assert.equal(untouched.code, 0, untouched.stderr);
      assert.equal(JSON.parse(untouched.stdout).added, 8, 'camt.053.001.08 reads as .02');
    } finally {
      await d.server.close();
    }
  });

  test('CSV with its own headers, named by --map', async () => {
    const d = await deployment();
    try {
      const text = readFileSync(d.paths[FILES.csv]!, 'utf8').replace(/^reference,date,type,/, 'Bank Ref,Booked,Type,');
      const path = join(dir, `mapped-${Math.random()}.csv`);
      writeFileSync(path, text);
      const unmapped = await d.cli('bank', 'import', path);
      assert.equal(unmapped.code, 65);
      assert.match(unmapped.stderr, /--map reference=/);
      const mapped = await d.cli('bank', 'import', path, '--map', 'reference=Bank Ref,date=Booked,type=Type', '--json');
      assert.equal(mapped.code, 0, mapped.stderr);
      assert.equal(JSON.parse(mapped.stdout).added, 8);
    } finally {
      await d.server.close();
    }
  });
  test('lines are immutable, and an import killed (-9) half-way then run again applies each line once', async () => {
    const d = await deployment();
    try {
      await assert.rejects(
        d.server.database.write(async (trx) => {
          await trx.updateTable('bank_statement_lines').set({ amount: 1 }).execute();
        }),
        /append-only/,
      );
      await assert.rejects(
        d.server.database.write(async (trx) => {
          await trx.deleteFrom('bank_statement_lines').execute();
        }),
        /append-only/,
      );
      const count = 400;
      const lines = Array.from({ length: count }, (_, i) => ({
        reference: `K${String(i).padStart(6, '0')}`,
        date: TODAY,
        direction: 'credit' as const,
        amount: 100 + i,
        kind: 'credit' as const,
        accountNumber: d.known,
        traceNumber: null,
        returnCode: null,
        counterparty: 'Globex',
        description: null,
      }));
      const total = lines.reduce((s, l) => s + l.amount, 0);
      const path = csvDay(`crash-${Math.random()}.csv`, { date: day(1), opening: 0, closing: total, lines });
      const before = await rows(d.server, 'bank_statement_lines');
      const child = spawn(process.execPath, ['src/cli/main.ts', 'bank', 'import', path], {
        cwd: ROOT,
        env: { ...process.env, ...d.env },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.on('close', resolve));
      // Killed once some lines, not all, are in: whenever that is, not after a set time.
      for (;;) {
        const stored = (await rows(d.server, 'bank_statement_lines')) - before;
        if (stored > 0 || child.exitCode !== null) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      child.kill('SIGKILL');
      await exited;
      const again = await d.cli('bank', 'import', path, '--json');
      assert.equal(again.code, 0, again.stderr);
      assert.equal((await rows(d.server, 'bank_statement_lines')) - before, count, 'every line once');
      const inbound = await sql<{ n: number }>`select count(*) as n from payments
        where direction = 'inbound' and mode = 'live' and amount >= 100 and amount < ${100 + count}`.execute(
        d.server.database.db,
      );
      assert.equal(Number(inbound.rows[0]!.n), count, 'one inbound payment per line');
      const verify = await d.cli('ledger', 'verify');
      assert.equal(verify.code, 0, verify.stdout);
    } finally {
      await d.server.close();
    }
  });
  // 2,000 lines: ten writes of 200 each, so that two imports started together overlap (PostgreSQL: they take turns
  // a write at a time; SQLite: one writer at a time, whichever gets the file's lock).
  const RACE = 2_000;

  test('two imports of the same file at once (two processes): each line stored and applied once', async (t) => {
    const d = await deployment();
    try {
      const before = {
        lines: await rows(d.server, 'bank_statement_lines'),
        exceptions: await rows(d.server, 'bank_exceptions'),
      };
      const lines = raceLines(d.known, day(2), RACE, 'RS');
      const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amount : -l.amount), 0);
      const text = writeCsv({
        format: 'csv',
        account: 'OMNIBUS-0001',
        currency: 'USD',
        date: day(2),
        opening: 0,
        closing,
        lines,
      });
      const [first, second] = await importsAtOnce(d, [text, text]);
      assert.equal(first!.code, 0, first!.stderr);
      assert.equal(second!.code, 0, second!.stderr);
      const [a, b] = [JSON.parse(first!.stdout) as Imported, JSON.parse(second!.stdout) as Imported];
      t.diagnostic(`lines added: ${a.added} by one process, ${b.added} by the other`);
      assert.equal(a.added + b.added, RACE, 'between them the two stored every line, neither one twice');
      assert.equal(a.outcomes.length, RACE);
      assert.deepEqual(a.outcomes, b.outcomes, 'both print the same outcome for each line: what its one match made');
      await assertAppliedOnce(d, lines, before);
    } finally {
      await d.server.close();
    }
  });

  test('the same day as two files at once (CSV, and camt.053 listing the lines the other way round): each line applied once, by one or the other', async (t) => {
    const d = await deployment();
    try {
      const before = {
        lines: await rows(d.server, 'bank_statement_lines'),
        exceptions: await rows(d.server, 'bank_exceptions'),
      };
      const lines = raceLines(d.known, day(3), RACE, 'RD');
      const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amount : -l.amount), 0);
      const statement = { account: 'OMNIBUS-0001', currency: 'USD', date: day(3), opening: 0, closing };
      const csv = writeCsv({ ...statement, format: 'csv', lines });
      const camt = writeCamt053({ ...statement, format: 'camt053', lines: lines.toReversed() });
      const [first, second] = await importsAtOnce(d, [csv, camt]);
      assert.equal(first!.code, 0, first!.stderr);
      assert.equal(second!.code, 0, second!.stderr);
      const [a, b] = [JSON.parse(first!.stdout) as Imported, JSON.parse(second!.stdout) as Imported];
      t.diagnostic(`lines added: ${a.added} from the CSV, ${b.added} from the camt.053`);
      // Each file's import works from its own end, adding lines until it meets the other's. On PostgreSQL both wait
      // for the turn before either adds a line, and take it in turn: each adds its own end's first 200 at least.
      // (On SQLite whichever process SQLite's busy handler lets in goes on; either may add them all.)
      if (BACKEND === 'postgres')
        assert.ok(a.added >= 200 && b.added >= 200, `both took part: ${a.added} and ${b.added} lines added`);
      assert.equal(a.added + b.added, RACE, 'between them the two stored every line, neither one twice');
      const byReference = (r: Imported) => r.outcomes.toSorted((x, y) => x.reference.localeCompare(y.reference));
      assert.equal(a.outcomes.length, RACE);
      assert.deepEqual(byReference(a), byReference(b), 'both print the same outcome for each line');
      await assertAppliedOnce(d, lines, before);
    } finally {
      await d.server.close();
    }
  });
  test('the examples in docs/examples/bank-day are what the generator writes, and read as one statement', async () => {
    const out = mkdtempSync(join(tmpdir(), 'plinth-bank-day-'));
    try {
      const made = await run(['scripts/bank-fixtures.ts', '--out', out]);
      assert.equal(made.code, 0, made.stderr);
      const read = new Set<string>();
      for (const name of Object.values(FILES_ALL)) {
        const shipped = readFileSync(join(ROOT, 'docs/examples/bank-day', name), 'utf8');
        assert.equal(shipped, readFileSync(join(out, name), 'utf8'), `${name} is the generator's`);
        const { format: _format, account: _account, ...statement } = readStatement(shipped);
        read.add(JSON.stringify(statement));
      }
      assert.equal(read.size, 1, 'the four files are the same day');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
