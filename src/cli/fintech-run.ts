import type { Database } from '../db/database.ts';
import { eventRecorderOutsideTheApp } from '../modules.ts';
import { ownerNow } from '../platform/clock/clock.ts';
import { systemClock } from '../platform/kit/time.ts';
import { verifyLedger } from '../products/fintech/ledger/verify.ts';
import { changeStatus, type LifecycleAction } from '../products/fintech/lifecycle.service.ts';
import { withDatabase } from './context.ts';
import { Failure } from './exits.ts';

/** What `accounts freeze|unfreeze|close` and `ledger verify` do (src/cli/fintech.ts parses them). */

/** The same service as the API's, with the operator as the actor; prints the account as JSON. */
export function lifecycle(id: string, action: LifecycleAction): Promise<void> {
  return withDatabase(async (database) => {
    const deps = {
      db: database.db,
      clock: systemClock,
      now: ownerNow(systemClock),
      events: eventRecorderOutsideTheApp(),
    };
    const account = await database.write((trx) =>
      changeStatus(deps, { trx, owner: null, request: null, now: systemClock() }, id, action),
    );
    process.stdout.write(`${JSON.stringify(account)}\n`);
  });
}

/** `ledger verify`, exit 1 when any invariant is breached. */
export function verify(): Promise<void> {
  return withDatabase(async (database) => {
    if (!(await ledgerVerify(database))) throw new Failure('');
  });
}

/** Prints each invariant, how much it covered and any breach; false when any breach exists. */
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
