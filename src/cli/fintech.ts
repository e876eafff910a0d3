import type { Database } from '../db/database.ts';
import { ApiError } from '../platform/http/errors.ts';
import { systemClock } from '../platform/kit/time.ts';
import { eventsWithDeliveries } from '../platform/webhooks/fan-out.ts';
import { verifyLedger } from '../products/fintech/ledger/verify.ts';
import { CLOSE_REASONS, FREEZE_REASONS } from '../products/fintech/lifecycle.schema.ts';
import { changeStatus, type LifecycleAction } from '../products/fintech/lifecycle.service.ts';

export const FINTECH_USAGE = `  accounts freeze <id> --reason <r> [--note <text>]       freeze as the operator (no API key can unfreeze it)
  accounts unfreeze <id> [--reason <r>] [--note <text>]   unfreeze, whoever froze it
  accounts close <id> [--reason <r>] [--note <text>]      close (final; both balances must be 0)
  ledger verify                                           check every ledger invariant; exit 0 only if all hold`;

export class CliUsageError extends Error {}

interface Flags {
  reason?: string | undefined;
  note?: string | undefined;
}

function actionOf(verb: string, flags: Flags): LifecycleAction {
  const { reason, note } = flags;
  if (verb === 'freeze') {
    if (reason === undefined || !(FREEZE_REASONS as readonly string[]).includes(reason))
      throw new Error(`--reason must be one of ${FREEZE_REASONS.join(', ')}`);
    return { kind: 'freeze', reason, note };
  }
  if (verb === 'close') {
    if (reason !== undefined && !(CLOSE_REASONS as readonly string[]).includes(reason))
      throw new Error(`--reason must be one of ${CLOSE_REASONS.join(', ')}`);
    return { kind: 'close', reason, note };
  }
  if (verb === 'unfreeze') return { kind: 'unfreeze' };
  throw new CliUsageError();
}

/** `accounts freeze|unfreeze|close <id>`: the same service as the API, with the operator as the actor. */
export async function accountsCommand(database: Database, args: string[], flags: Flags): Promise<void> {
  const [verb, id, ...extra] = args;
  if (verb === undefined || id === undefined || extra.length > 0) throw new CliUsageError();
  const deps = { db: database.db, clock: systemClock, events: eventsWithDeliveries() };
  try {
    const action = actionOf(verb, flags);
    const account = await database.write((trx) =>
      changeStatus(deps, { trx, owner: null, request: null, now: systemClock() }, id, action),
    );
    process.stdout.write(`${JSON.stringify(account)}\n`);
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** `ledger verify`: prints each invariant, how much it covered and any breach; false when any breach exists. */
export async function ledgerVerify(database: Database): Promise<boolean> {
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
