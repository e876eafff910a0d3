import { readFileSync } from 'node:fs';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { eventRecorderOutsideTheApp } from '../modules.ts';
import { ownerNow } from '../platform/clock/clock.ts';
import { systemClock } from '../platform/kit/time.ts';
import { secretBoxFor } from '../platform/secrets/key-source.ts';
import { listExceptions, ResolveRefused, resolveException } from '../products/fintech/bank/statements/exceptions.ts';
import { importStatement } from '../products/fintech/bank/statements/import.ts';
import { readStatement } from '../products/fintech/bank/statements/read.ts';
import { reconcileDay } from '../products/fintech/bank/statements/reconcile.ts';
import { decimalOf, type StatementFormat, StatementRefused } from '../products/fintech/bank/statements/statement.ts';
import { withDatabase } from './context.ts';
import { EXIT, Failure } from './exits.ts';

/** What `bank import|exceptions|resolve|reconcile` do (src/cli/bank-statements.ts parses them). */

function paymentDeps(database: Database, config: Config) {
  return {
    db: database.db,
    clock: systemClock,
    now: ownerNow(systemClock),
    events: eventRecorderOutsideTheApp(),
    secrets: secretBoxFor(config),
    routingNumber: config.BANK_ROUTING_NUMBER,
  };
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Reads and checks the whole file before the database is opened: a file that does not add up stores nothing (65). */
export function importFile(file: string, flags: { format?: StatementFormat; map?: string; json?: boolean }) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Failure(`cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
  }
  let statement: ReturnType<typeof readStatement>;
  try {
    statement = readStatement(text, flags.format, flags.map);
  } catch (error) {
    if (error instanceof StatementRefused)
      throw new Failure(`${file} refused, nothing stored: ${error.message}`, EXIT.data);
    throw error;
  }
  return withDatabase(async (database, config) => {
    const result = await importStatement(database, paymentDeps(database, config), statement, text);
    if (flags.json) {
      print(result);
      return;
    }
    process.stdout.write(
      `${result.date}: ${result.lines} lines, ${result.added} new; opening ${decimalOf(result.opening)}, closing ${decimalOf(result.closing)}\n`,
    );
    for (const o of result.outcomes)
      process.stdout.write(
        `${o.reference.padEnd(20)} ${o.rule.padEnd(15)} ${o.payment_id ?? ''} ${o.payment_status ?? ''}${o.exception ?? ''}\n`,
      );
  });
}

export function exceptions(flags: { all?: boolean; json?: boolean }) {
  return withDatabase(async (database) => {
    const rows = await listExceptions(database, flags.all === true);
    if (flags.json) {
      print(rows);
      return;
    }
    for (const r of rows)
      process.stdout.write(
        `${r.line} ${r.date} ${decimalOf(r.amount).padStart(14)} ${r.status.padEnd(8)} ${r.reason}${r.note === null ? '' : ` (${r.note})`}\n`,
      );
  });
}

export function resolve(line: string, flags: { account?: string; ignore?: boolean; note?: string }) {
  if ((flags.account === undefined) === (flags.ignore !== true))
    throw new Failure('give one of --account acct_… or --ignore --note "…"', EXIT.usage);
  if (flags.ignore && (flags.note === undefined || flags.note.trim() === ''))
    throw new Failure('--ignore needs a --note saying why', EXIT.usage);
  return withDatabase(async (database, config) => {
    try {
      const how =
        flags.account !== undefined
          ? { account: flags.account, note: flags.note ?? null }
          : { ignore: true as const, note: flags.note! };
      print(await resolveException(database, paymentDeps(database, config), line, how));
    } catch (error) {
      if (error instanceof ResolveRefused) throw new Failure(error.message);
      throw error;
    }
  });
}

export function reconcile(flags: { date: string; json?: boolean }) {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(flags.date) || Number.isNaN(Date.parse(flags.date)))
    throw new Failure(`--date ${flags.date} is not a day like 2026-12-01`, EXIT.usage);
  return withDatabase(async (database) => {
    const proof = await reconcileDay(database.db, flags.date);
    if (proof === undefined) throw new Failure(`no statement imported for ${flags.date}`);
    if (flags.json) print(proof);
    else {
      const row = (label: string, cents: number) =>
        process.stdout.write(`${label.padEnd(44)} ${decimalOf(cents).padStart(16)}\n`);
      row(`bank closing balance ${flags.date}`, proof.bank_closing);
      row('ledger: live customer accounts (current)', proof.ledger.customer_accounts);
      row('ledger: clearing, submitted unsettled payments', proof.ledger.clearing_unsettled);
      row('difference (bank − ledger)', proof.difference);
      row(`open exceptions (${proof.open_exceptions.length})`, proof.open_exceptions_sum);
      for (const e of proof.open_exceptions) row(`  ${e.line} ${e.reason}`.slice(0, 44), e.amount);
      process.stdout.write(
        proof.explained ? 'reconciled: the difference is the open exceptions\n' : 'NOT reconciled\n',
      );
    }
    if (!proof.explained) throw new Failure('');
  });
}
