import { sql } from 'kysely';
import type { Database, Trx } from '../../db/database.ts';
import { perLimit, preparedWrite } from '../../db/prepared.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { requireSandbox } from '../../platform/auth/sandbox.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { endHold } from './ledger/move.ts';
import type { MoneyDeps } from './shared.ts';
import type { TransfersTable } from './tables.ts';
import { expireHeld, holdOf, lockPending, resolveHeld } from './transfers.pending.ts';
import type { Transfer } from './transfers.schema.ts';

/**
 * A pending transfer's expiry (docs/api.md#holding-money-pending-transfers-and-the-two-balances): the background sweep
 * past `expires_at`, and the sandbox's "expire it now". Both release the hold as a void does (transfers.pending.ts),
 * with status `expired`.
 */

// The limit written into the SQL, not bound: a bound LIMIT makes SQLite re-prepare the statement at every run (perLimit).
const dueRows = perLimit((limit) =>
  preparedWrite<{ now: string }, TransfersTable>({ now: true }, (db, p) =>
    db
      .selectFrom('transfers')
      .selectAll()
      .where('status', '=', 'pending')
      .where('expires_at', '<=', p.now)
      .orderBy('expires_at')
      .limit(sql.lit(limit))
      .forNoKeyUpdate()
      .skipLocked(),
  ),
);

/**
 * The expiry sweep: up to `limit` pending transfers past their `expires_at` become `expired`, their holds released,
 * each with its event, in the caller's write. On PostgreSQL a row another process holds (posting, voiding, sweeping
 * it) is skipped, and the winner decides. Returns how many expired.
 */
export async function expireDue(deps: MoneyDeps, trx: Trx, limit: number): Promise<number> {
  const now = deps.clock();
  const { rows } = await dueRows(limit)(trx, { now: storedTime(now) });
  for (const row of rows)
    await expireHeld(deps, { trx, owner: { orgId: row.org_id, mode: row.mode }, request: null, now }, row);
  return rows.length;
}

const rowById = preparedWrite<{ id: string }, TransfersTable>({ id: true }, (db, p) =>
  db.selectFrom('transfers').selectAll().where('id', '=', p.id).forNoKeyUpdate(),
);

/**
 * A sandbox clock's due expiry (payments.due.ts declares it due): the transfer locked and read again, and expired
 * if it is still pending and its `expires_at` has come (another process may have posted, voided or expired it first).
 */
export async function expireIfDue(deps: MoneyDeps, ctx: WriteContext, id: string): Promise<undefined> {
  const row = (await rowById(ctx.trx, { id })).rows[0];
  if (row?.status === 'pending' && row.expires_at !== null && row.expires_at <= storedTime(ctx.now))
    await expireHeld(deps, ctx, row);
  return undefined;
}

/**
 * Sandbox only: a pending transfer expires now, as the sweep would at its `expires_at` (its `expires_at` becomes now),
 * so that an integration can test what expiry does without waiting a minute.
 */
export async function simulateExpiry(deps: MoneyDeps, ctx: WriteContext<Principal>, id: string): Promise<Transfer> {
  requireSandbox(ctx.owner);
  const row = await lockPending(ctx.trx, ctx.owner, id, ctx.now);
  const at = await endHold(ctx.trx, ctx.owner, row.from_account_id, holdOf(row), ctx.now);
  return resolveHeld(deps, { ...ctx, now: at }, { ...row, expires_at: storedTime(at) }, 'expired');
}

/** One pass of the expiry sweep (a job of the fintech module): every due expiry, 100 per write. */
export async function sweepExpired(deps: MoneyDeps & { write: Database['write'] }): Promise<number> {
  let total = 0;
  let expired: number;
  do {
    expired = await deps.write((trx) => expireDue(deps, trx, 100));
    total += expired;
  } while (expired === 100);
  return total;
}
