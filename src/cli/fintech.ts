import { type Command, Option } from 'commander';
import type { Database } from '../db/database.ts';
import { systemClock } from '../platform/kit/time.ts';
import { eventsWithDeliveries } from '../platform/webhooks/fan-out.ts';
import { verifyLedger } from '../products/fintech/ledger/verify.ts';
import { CLOSE_REASONS, FREEZE_REASONS, NOTE_MAX } from '../products/fintech/lifecycle.schema.ts';
import { changeStatus, type LifecycleAction } from '../products/fintech/lifecycle.service.ts';
import { withDatabase } from './context.ts';
import { Failure } from './exits.ts';

interface Flags {
  reason?: string;
  note?: string;
}

const NOTE = `kept with the change: 1–${NOTE_MAX} characters, as the API's note`;

/**
 * `accounts freeze|unfreeze|close <id>` as the operator, and `ledger verify`. The reasons are the API's own lists
 * (lifecycle.schema.ts), so each command offers exactly what its endpoint takes (docs/api.md#operator-cli).
 */
export function registerFintech(program: Command): void {
  const accounts = program.command('accounts').description("change any org's account's status, as the operator");
  accounts
    .command('freeze')
    .description('freeze as the operator (actor: operator): no API key can unfreeze it')
    .argument('<id>', 'the account id (acct_…)')
    .addOption(new Option('--reason <reason>', 'why').choices(FREEZE_REASONS).makeOptionMandatory())
    .option('--note <text>', NOTE)
    .action((id: string, flags: Flags) => lifecycle(id, { kind: 'freeze', reason: flags.reason!, note: flags.note }));
  accounts
    .command('unfreeze')
    .description('unfreeze, whoever froze it (as the API, it takes no reason: the status details are cleared)')
    .argument('<id>', 'the account id (acct_…)')
    .action((id: string) => lifecycle(id, { kind: 'unfreeze' }));
  accounts
    .command('close')
    .description('close: final, and both balances must be 0')
    .argument('<id>', 'the account id (acct_…)')
    .addOption(new Option('--reason <reason>', 'why (default: other)').choices(CLOSE_REASONS))
    .option('--note <text>', NOTE)
    .action((id: string, flags: Flags) => lifecycle(id, { kind: 'close', reason: flags.reason, note: flags.note }));

  const ledger = program.command('ledger').description('the money core');
  ledger
    .command('verify')
    .description('check every ledger invariant, on one snapshot; exit 0 only if all hold')
    .action(() =>
      withDatabase(async (database) => {
        if (!(await ledgerVerify(database))) throw new Failure('');
      }),
    );
}

/** The same service as the API's, with the operator as the actor; prints the account as JSON. */
function lifecycle(id: string, action: LifecycleAction): Promise<void> {
  return withDatabase(async (database) => {
    const deps = { db: database.db, clock: systemClock, events: eventsWithDeliveries() };
    const account = await database.write((trx) =>
      changeStatus(deps, { trx, owner: null, request: null, now: systemClock() }, id, action),
    );
    process.stdout.write(`${JSON.stringify(account)}\n`);
  });
}

/** `ledger verify`: prints each invariant, how much it covered and any breach; false when any breach exists. */
async function ledgerVerify(database: Database): Promise<boolean> {
  const checks = await verifyLedger(database.db);
  for (const check of checks) {
    const verdict = check.violations.length === 0 ? 'ok' : `${check.violations.length} VIOLATION(S)`;
    process.stdout.write(`${verdict.padEnd(16)} ${check.name} (${check.checked} checked)\n`);
    for (const violation of check.violations) process.stdout.write(`                 ${violation}\n`);
  }
  const ok = checks.every((c) => c.violations.length === 0);
  process.stdout.write(ok ? 'ledger verify: every invariant holds\n' : 'ledger verify: FAILED\n');
  return ok;
}
