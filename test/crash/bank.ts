import { spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { readNacha } from '../../src/products/fintech/bank/nacha-read.ts';
import { writeCsv } from '../../src/products/fintech/bank/statements/csv.ts';
import type { StatementLine } from '../../src/products/fintech/bank/statements/statement.ts';
import { TEST_SECRETS_KEY } from '../helpers/database.ts';
import { ROOT, run } from '../helpers/process.ts';
import { send } from './http.ts';
import type { Store } from './store.ts';

/**
 * The live money path's operator commands (docs/deploy.md, "Live money: the bank files"), killed with SIGKILL in the
 * middle, in a live org of their own. Each cycle: a statement of the day (credits to the org's live account number,
 * and settlement or return lines for every payment the last cycle's file sent) is imported by `bank import`, killed
 * once some of its lines are stored, then imported again to the end; live ACH payments are made; `bank ach-export`
 * is killed once its file appears on disk (before its commit, between its commit and its final name, or just after),
 * then run again to the end. Then, over every cycle so far: the directory holds only final NACHA files, each recorded
 * with its SHA-256, and no payment is in two of them; every payment made is in exactly the file its row names, with
 * its trace number; every statement line is stored once and made its one payment (one inbound payment per credit,
 * the last cycle's payments settled or returned); the account's balance is what came in less what went out and
 * stayed out. `ledger verify` runs after (test/crash/reversals.ts checks the whole database).
 */

const ROUTING = '021000021';
const BANK = { BANK_ROUTING_NUMBER: ROUTING, BANK_NAME: 'Crash Test Bank', BANK_ORIGIN_ID: '1234567890' };
const CREDITS_A_CYCLE = 500; // three writes of up to 200 lines
const PAYMENTS_A_CYCLE = 40;
/** One payment in this many comes back R01 the next day instead of settling. */
const RETURNED_ONE_IN = 8;
/** The first statement's day; each cycle's is a day later (one statement a day). */
const FIRST_DAY = Date.UTC(2031, 0, 1);

/** The servers need the bank's routing number for live account numbers and payments. */
export const BANK_SERVER_SETTINGS = { BANK_ROUTING_NUMBER: ROUTING };

export interface BankFigures {
  imports: number;
  /** Imports killed with some lines stored and some not. */
  importsCutHalfway: number;
  exports: number;
  /** Exports killed with their file written but not yet recorded (its `.partial` removed by the next run). */
  exportsCutBeforeCommit: number;
  /** Exports killed with their file recorded but not yet under its final name (published by the next run). */
  exportsCutBeforeRename: number;
  files: number;
  payments: number;
  lines: number;
  checked: number;
}

interface Sent {
  id: string;
  amount: number;
  /** The next statement returns it (R01) rather than settling it. */
  returns: boolean;
}

interface Row {
  id: string;
  direction: string;
  status: string;
  amount: number | string;
  trace_number: string | null;
  ach_file_id: string | null;
}

export class BankFiles {
  readonly figures: BankFigures = {
    imports: 0,
    importsCutHalfway: 0,
    exports: 0,
    exportsCutBeforeCommit: 0,
    exportsCutBeforeRename: 0,
    files: 0,
    payments: 0,
    lines: 0,
    checked: 0,
  };
  private key = '';
  private orgId = '';
  private account = '';
  private number = '';
  private external = '';
  private readonly dir = mkdtempSync(join(tmpdir(), 'plinth-crash-bank-'));
  private readonly out = join(this.dir, 'out');
  private readonly env: Record<string, string>;
  private cycle = 0;
  private balance = 0;
  private credits = 0;
  /** Every payment made, and those the last export sent (the next statement settles or returns them). */
  private readonly payments: Sent[] = [];
  private sentLast: Sent[] = [];
  private readonly store: Store;
  private readonly fail: (message: string) => void;

  constructor(store: Store, fail: (message: string) => void) {
    this.store = store;
    this.fail = fail;
    this.env = {
      DATABASE_URL: store.url,
      ...BANK,
      ...(store.url.startsWith('postgres') ? { SECRETS_KEY: process.env.SECRETS_KEY ?? TEST_SECRETS_KEY } : {}),
    };
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async ok(agent: http.Agent, url: string, path: string, json: unknown) {
    const answer = await send(agent, url, 'POST', path, { authorization: `Bearer ${this.key}` }, json);
    if (answer.status !== 200) throw new Error(`POST ${path} answered ${answer.status}: ${answer.text}`);
    return JSON.parse(answer.text);
  }

  /** A live org by the operator's `keys create`, its account, a live account number, an external account. */
  async setUp(agent: http.Agent, url: string): Promise<void> {
    const made = await run(['src/cli/main.ts', 'keys', 'create', '--org', 'crash bank', '--mode', 'live', '--json'], {
      ...this.env,
    });
    if (made.code !== 0) throw new Error(`keys create: ${made.stderr}`);
    ({ key: this.key, org_id: this.orgId } = JSON.parse(made.stdout));
    this.account = (await this.ok(agent, url, '/v1/fintech/accounts', { type: 'business', country: 'US' })).id;
    const number = await this.ok(agent, url, '/v1/fintech/account_numbers', { account_id: this.account, name: 'Main' });
    this.number = number.account_number;
    this.external = (
      await this.ok(agent, url, '/v1/fintech/external_accounts', {
        routing_number: '011000015',
        account_number: '000123456789',
        account_holder_name: 'Acme Supplies LLC',
        account_type: 'checking',
      })
    ).id;
    mkdirSync(this.out);
  }

  /** One cycle: the day's statement imported (killed, then again), payments made, the file exported (killed, again). */
  async run(agent: http.Agent, url: string): Promise<void> {
    try {
      this.cycle++;
      await this.importDay();
      for (let i = 0; i < PAYMENTS_A_CYCLE; i++) {
        const amount = randomInt(1, 5_000);
        const body = {
          account_id: this.account,
          external_account_id: this.external,
          amount,
          currency: 'USD',
          rail: 'ach',
        };
        const payment = await this.ok(agent, url, '/v1/fintech/payments', body);
        if (payment.status !== 'pending_submission') throw new Error(`a live ACH payment is ${payment.status}`);
        this.payments.push({ id: payment.id, amount, returns: randomInt(RETURNED_ONE_IN) === 0 });
        this.figures.payments++;
      }
      await this.exportFile();
      await this.check(agent, url);
    } catch (error) {
      this.fail(`bank: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async rows<T>(text: string): Promise<T[]> {
    return this.store.rows<T>(text, this.orgId);
  }

  private async storedLines(): Promise<number> {
    const [row] = await this.rows<{ n: number | string }>(
      'select count(*) as n from bank_statement_lines where org_id = $org',
    );
    return Number(row!.n);
  }

  /** The cycle's statement: credits to the number; the last file's payments settled, or returned R01. */
  private async importDay(): Promise<void> {
    const date = new Date(FIRST_DAY + this.cycle * 86_400_000).toISOString().slice(0, 10);
    const rows = new Map((await this.rows<Row>(PAYMENTS)).map((r) => [r.id, r]));
    const line = (reference: string, rest: Partial<StatementLine>): StatementLine => ({
      reference,
      date,
      direction: 'credit',
      amount: 0,
      kind: 'credit',
      accountNumber: null,
      traceNumber: null,
      returnCode: null,
      counterparty: null,
      description: null,
      ...rest,
    });
    const lines: StatementLine[] = [];
    for (let i = 0; i < CREDITS_A_CYCLE; i++)
      lines.push(
        line(`CR-${this.cycle}-${i}`, {
          amount: randomInt(100, 10_000),
          accountNumber: this.number,
          counterparty: 'Globex',
        }),
      );
    for (const p of this.sentLast) {
      const trace = rows.get(p.id)?.trace_number ?? null;
      if (trace === null) throw new Error(`payment ${p.id} was sent without a trace number`);
      lines.push(
        p.returns
          ? line(`RT-${p.id}`, { amount: p.amount, kind: 'ach_return', traceNumber: trace, returnCode: 'R01' })
          : line(`ST-${p.id}`, { direction: 'debit', amount: p.amount, kind: 'ach_settlement', traceNumber: trace }),
      );
    }
    const opening = this.balance;
    const closing = lines.reduce((s, l) => s + (l.direction === 'credit' ? l.amount : -l.amount), opening);
    const path = join(this.dir, `${date}.csv`);
    writeFileSync(
      path,
      writeCsv({ format: 'csv', account: 'OMNIBUS-1', currency: 'USD', date, opening, closing, lines }),
    );

    const before = await this.storedLines();
    this.figures.imports++;
    const child = this.command(['bank', 'import', path]);
    // Killed once some lines are in (whenever that is, not after a set time), a little later by chance.
    while ((await this.storedLines()) === before && child.running()) await yieldToLoop();
    await child.killSoon(200);
    const stored = (await this.storedLines()) - before;
    if (stored > 0 && stored < lines.length) this.figures.importsCutHalfway++;
    const again = await run(['src/cli/main.ts', 'bank', 'import', path], this.env);
    if (again.code !== 0) throw new Error(`bank import, run again, exited ${again.code}: ${again.stderr}`);
    this.balance = closing;
    this.credits += CREDITS_A_CYCLE;
    this.figures.lines += lines.length;
  }

  /** The export killed once its file is on disk (any name: temporary, `.partial` or final), then run to the end. */
  private async exportFile(): Promise<void> {
    const before = new Set(readdirSync(this.out));
    this.figures.exports++;
    const child = this.command(['bank', 'ach-export', '--out', this.out]);
    while (readdirSync(this.out).every((name) => before.has(name)) && child.running()) await yieldToLoop();
    await child.killSoon(150);
    const recorded = new Set((await this.rows<{ name: string }>(FILES)).map((f) => f.name));
    for (const name of readdirSync(this.out).filter((n) => n.endsWith('.partial'))) {
      if (recorded.has(name.slice(0, -'.partial'.length))) this.figures.exportsCutBeforeRename++;
      else this.figures.exportsCutBeforeCommit++;
    }
    const again = await run(['src/cli/main.ts', 'bank', 'ach-export', '--out', this.out], this.env);
    if (again.code !== 0) throw new Error(`bank ach-export, run again, exited ${again.code}: ${again.stderr}`);
    const sent = new Set(
      (await this.rows<Row>(PAYMENTS))
        .filter((r) => r.direction === 'outbound' && r.status === 'submitted')
        .map((r) => r.id),
    );
    this.sentLast = this.payments.filter((p) => sent.has(p.id));
  }

  /** The CLI, started; `killSoon(ms)`: SIGKILL after up to `ms` (at once, one time in three), unless it ended. */
  private command(args: string[]) {
    const child = spawn(process.execPath, ['src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: 'ignore',
    });
    let ended = false;
    const gone = new Promise<void>((resolve) =>
      child.once('close', () => {
        ended = true;
        resolve();
      }),
    );
    return {
      running: () => !ended,
      async killSoon(withinMs: number): Promise<void> {
        if (!ended) {
          const wait = randomInt(3) === 0 ? 0 : randomInt(withinMs);
          if (wait > 0) await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, wait))]);
          child.kill('SIGKILL');
        }
        await gone;
      },
    };
  }

  /** Every check, over every cycle so far. */
  private async check(agent: http.Agent, url: string): Promise<void> {
    const names = readdirSync(this.out);
    const strays = names.filter((n) => !/^plinth-ach-[0-9]{8}-achf_[0-9A-Za-z]+\.ach$/.test(n));
    if (strays.length > 0) throw new Error(`the export directory holds ${strays.join(', ')}`);
    const files = new Map(
      (await this.rows<{ id: string; name: string; sha256: string }>(FILES)).map((f) => [f.name, f]),
    );
    const inFile = new Map<string, string>(); // trace number → file id
    for (const name of names) {
      const bytes = readFileSync(join(this.out, name));
      const file = files.get(name);
      if (file === undefined) throw new Error(`${name} is in the directory but no ach_files row records it`);
      if (createHash('sha256').update(bytes).digest('hex') !== file.sha256)
        throw new Error(`${name} differs from the SHA-256 recorded for it`);
      for (const entry of readNacha(bytes.toString('latin1')).entries) {
        if (inFile.has(entry.traceNumber))
          throw new Error(`trace number ${entry.traceNumber} is in ${name} and in ${inFile.get(entry.traceNumber)}`);
        inFile.set(entry.traceNumber, file.id);
      }
    }
    if (files.size !== names.length) throw new Error(`${files.size} files recorded, ${names.length} in the directory`);
    this.figures.files = names.length;

    const rows = await this.rows<Row>(PAYMENTS);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const outbound = rows.filter((r) => r.direction === 'outbound');
    if (outbound.length !== this.payments.length)
      throw new Error(`${outbound.length} payments out in the database, ${this.payments.length} made`);
    if (inFile.size !== outbound.length)
      throw new Error(`${inFile.size} entries in files, ${outbound.length} payments`);
    const settledBefore = new Set(this.payments.slice(0, -PAYMENTS_A_CYCLE).map((p) => p.id));
    let settled = 0;
    let held = 0;
    for (const p of this.payments) {
      const row = byId.get(p.id)!;
      if (row.trace_number === null || inFile.get(row.trace_number) !== row.ach_file_id)
        throw new Error(`payment ${p.id} (trace ${row.trace_number}) is not in the one file its row names`);
      const wanted = !settledBefore.has(p.id) ? 'submitted' : p.returns ? 'returned' : 'settled';
      if (row.status !== wanted) throw new Error(`payment ${p.id} is ${row.status}, not ${wanted}`);
      if (row.status === 'settled') settled += p.amount;
      if (row.status === 'submitted') held += p.amount;
    }
    const inbound = rows.filter((r) => r.direction === 'inbound');
    const received = inbound.reduce((s, r) => s + Number(r.amount), 0);
    if (inbound.length !== this.credits)
      throw new Error(`${inbound.length} inbound payments for ${this.credits} credits`);
    const lines = await this.storedLines();
    if (lines !== this.figures.lines)
      throw new Error(`${lines} statement lines stored, ${this.figures.lines} imported`);
    const read = await send(agent, url, 'GET', `/v1/fintech/accounts/${this.account}`, {
      authorization: `Bearer ${this.key}`,
    });
    const account = JSON.parse(read.text);
    const balances = [account.current_balance?.amount, account.available_balance?.amount];
    const wanted = [received - settled, received - settled - held];
    if (balances.join() !== wanted.join())
      throw new Error(`the account's balances are ${balances}, want ${wanted} (in, less settled, less held)`);
    this.figures.checked++;
  }
}

const PAYMENTS =
  'select id, direction, status, amount, trace_number, ach_file_id from payments where org_id = $org order by id';
const FILES =
  'select id, name, sha256 from ach_files where id in (select ach_file_id from payments where org_id = $org)';
