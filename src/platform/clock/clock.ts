import { sql } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import { prepared, preparedSend } from '../../db/prepared.ts';
import type { Clock } from '../kit/time.ts';
import type { Owner } from '../operations/context.ts';

/**
 * The sandbox clock (docs/api.md#the-sandbox-clock): each org's sandbox reads time as real time plus an offset that
 * only grows, kept in a row (`sandbox_clocks`) so that every server process reads the same clock. Live mode has none.
 * This is the one function for "now" of a request's owner: every time a service writes or compares for an owner comes
 * from it (as `WriteContext.now` in a write, `OwnerNow` in a read). What keeps the service running (webhook
 * signatures and retries, rate limits, idempotency and log retention, sessions) stays on the real clock.
 */

export interface SandboxClocksTable {
  org_id: string;
  /** Milliseconds added to real time; never lowered. pg answers a bigint as a string. */
  offset_ms: number | string;
  /** The time an advance asked for (ms since the epoch) until the clock reaches it; null when none is under way. */
  target_ms: number | string | null;
}

declare module '../../db/tables.ts' {
  interface Tables {
    sandbox_clocks: SandboxClocksTable;
  }
}

export interface ClockRow {
  offsetMs: number;
  targetMs: number | null;
}

const clockRow = prepared<{ org_id: string }, Pick<SandboxClocksTable, 'offset_ms' | 'target_ms'>>(
  { org_id: true },
  (db, p) => db.selectFrom('sandbox_clocks').select(['offset_ms', 'target_ms']).where('org_id', '=', p.org_id),
);

/** The org's sandbox clock as stored (offset 0, no target, before it was first advanced). */
export async function clockRowOf(db: Db | Trx, orgId: string): Promise<ClockRow> {
  const row = (await clockRow(db, { org_id: orgId })).rows[0];
  return {
    offsetMs: row === undefined ? 0 : Number(row.offset_ms),
    targetMs: row?.target_ms === null || row === undefined ? null : Number(row.target_ms),
  };
}

/**
 * Raises the org's clock target to `toMs` unless it is already later (made with offset 0 if the org has no clock row),
 * in one statement: writes that share the clock's turn (`ownerNowInWrite`) may do it at once, and the later wins.
 */
export async function raiseTarget(trx: Trx, orgId: string, toMs: number): Promise<void> {
  await trx
    .insertInto('sandbox_clocks')
    .values({ org_id: orgId, offset_ms: 0, target_ms: toMs })
    .onConflict((oc) =>
      oc.column('org_id').doUpdateSet({
        target_ms: sql<number>`case when sandbox_clocks.target_ms is null or sandbox_clocks.target_ms < excluded.target_ms then excluded.target_ms else sandbox_clocks.target_ms end`,
      }),
    )
    .execute();
}

/** "Now" for an owner: real time in live mode, its org's sandbox clock in sandbox mode. Read on `db` or in a write. */
export type OwnerNow = (db: Db | Trx, owner: Owner) => Promise<Date>;

export function ownerNow(clock: Clock): OwnerNow {
  return async (db, owner) => {
    if (owner.mode === 'live') return clock();
    const { offsetMs } = await clockRowOf(db, owner.orgId);
    const real = clock();
    return offsetMs === 0 ? real : new Date(real.getTime() + offsetMs);
  };
}

/**
 * "Now" for an owner in a write (the idempotency step's `WriteContext.now`): in sandbox mode the write first takes a
 * share of its org's clock turn, held until it commits, so that the clock cannot move between this read and the
 * write's commit. Without it, on PostgreSQL, a write could read the clock, an advance run everything due and move the
 * clock past, and the write then commit work dated before the clock, or due before it (a payment settled on demand
 * whose rule's return was due a day later), which the finished advance never ran. The clock's own writes (`runDue`)
 * take the whole turn, so they wait for the writes that read the clock, and those wait for them.
 */
export function ownerNowInWrite(clock: Clock): (trx: Trx, owner: Owner) => Promise<Date> {
  const now = ownerNow(clock);
  return (trx, owner) => {
    if (owner.mode === 'sandbox') trx.shareTurn(clockTurn(owner.orgId));
    return now(trx, owner);
  };
}

const upsertClock = preparedSend<SandboxClocksTable>({ org_id: true, offset_ms: true, target_ms: true }, (db, p) =>
  db
    .insertInto('sandbox_clocks')
    .values(p)
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ offset_ms: p.offset_ms, target_ms: p.target_ms })),
);

/**
 * Writes the org's clock (issued, not awaited). The caller holds the org's clock turn (`clockTurn`) and passes an
 * offset no lower than the one it read under it: the clock only goes forward.
 */
export function writeClock(trx: Trx, orgId: string, clock: ClockRow): void {
  upsertClock(trx, { org_id: orgId, offset_ms: clock.offsetMs, target_ms: clock.targetMs });
}

/** The turn every change of an org's clock takes (one at a time, across processes). */
export const clockTurn = (orgId: string) => `sandbox_clock:${orgId}`;
