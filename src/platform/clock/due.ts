import type { Database, Db, Trx } from '../../db/database.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import type { EventRequest, Owner, WriteContext } from '../operations/context.ts';
import { clockRowOf, clockTurn, raiseTarget, writeClock } from './clock.ts';

/**
 * What comes due as a sandbox clock moves (docs/api.md#the-sandbox-clock): an ACH payment's submission at the cut-off,
 * a settlement, a rule's return, a pending transfer's expiry. A module declares where its due work is found (a
 * `DueSource`); advancing a clock runs every item due up to the new time, across every source, in time order, each in
 * a write whose time is the item's due moment.
 */
export interface DueItem {
  /** When it is due, stored form (storedTime): the time its write takes. */
  at: string;
  /**
   * Does it, in the write it is handed (`ctx.now` is `at`). It re-reads what it acts on under its lock and does
   * nothing when that is no longer due (another process did it first). Returns the due moment of work it scheduled
   * (a settlement after a submission), if any, so that the runner keeps time order.
   */
  run(ctx: WriteContext): Promise<string | undefined>;
}

export interface DueSource {
  what: string;
  /** Up to `limit` items of the org's sandbox due at or before `upTo`, earliest first (a read: `run` locks). */
  next(db: Db | Trx, orgId: string, upTo: string, limit: number): Promise<DueItem[]>;
  /**
   * The orgs whose sandbox has an item due at or before `upTo` by real time (the background pass's question; an org
   * whose clock runs ahead is asked about by its `sandbox_clocks` row).
   */
  orgsDue(db: Db, upTo: string): Promise<string[]>;
}

/** Items per write: large enough that a clock advance over thousands of items is quick, small enough to keep a write short. */
const BATCH = 200;

/**
 * The items of one write, in time order: every source's next items merged, cut where a source that filled its batch
 * stops (beyond that moment it may have earlier items not yet read).
 */
function mergeDue(batches: DueItem[][]): DueItem[] {
  let horizon: string | undefined;
  for (const batch of batches)
    if (batch.length === BATCH) {
      const last = batch[batch.length - 1]!.at;
      if (horizon === undefined || last < horizon) horizon = last;
    }
  const all = batches.flat().filter((item) => horizon === undefined || item.at <= horizon);
  // A stable sort: equal moments keep their source's order, and each source's own order.
  return all.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

export interface ClockDeps {
  database: Database;
  /** Real time. */
  clock: Clock;
  sources: readonly DueSource[];
}

/**
 * Runs every item of the org's sandbox due up to its clock's target (an advance under way) or its now, whichever is
 * later, in time order, then sets its clock there (never back) and clears the target. One write per batch, each
 * holding the org's clock turn, so two processes running the same clock take turns and each item runs once: an item's
 * `run` re-checks it under its lock, and its change commits with its write. The clock is raised with each batch to its
 * last item, so a request made meanwhile is not dated before what already ran. Returns how many items ran.
 */
export async function runDue(deps: ClockDeps, orgId: string, request: EventRequest | null): Promise<number> {
  const owner: Owner = { orgId, mode: 'sandbox' };
  let ran = 0;
  for (;;) {
    const more = await deps.database.write(async (trx) => {
      trx.takeTurn(clockTurn(orgId));
      const clock = await clockRowOf(trx, orgId);
      const real = deps.clock().getTime();
      const to = Math.max(clock.targetMs ?? 0, real + clock.offsetMs);
      const upTo = storedTime(new Date(to));
      const batches = await Promise.all(deps.sources.map((source) => source.next(trx, orgId, upTo, BATCH)));
      const items = mergeDue(batches);
      let last: string | undefined;
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        const scheduled = await item.run({ trx, owner, request, now: new Date(item.at) });
        last = item.at;
        ran++;
        // Work it scheduled before the next item read here: read again, so that it runs in its turn.
        const next = items[i + 1];
        if (scheduled !== undefined && next !== undefined && scheduled < next.at) break;
      }
      if (last !== undefined) {
        const offsetMs = Math.max(clock.offsetMs, Date.parse(last) - real);
        if (offsetMs > clock.offsetMs) writeClock(trx, orgId, { ...clock, offsetMs });
        return true;
      }
      if (clock.targetMs !== null)
        writeClock(trx, orgId, { offsetMs: Math.max(clock.offsetMs, to - real), targetMs: null });
      return false;
    });
    if (!more) return ran;
  }
}

/**
 * An advance's own write (under the idempotency step, which holds a share of the clock's turn: clock.ts,
 * `ownerNowInWrite`, so the clock does not move meanwhile): the target raised, in one statement, so that two
 * advances at once keep the later target. What is due up to it runs after it commits (`runDue`), and should this
 * process stop first, the clock's background pass runs it.
 */
export async function setTarget(trx: Trx, orgId: string, toMs: number): Promise<void> {
  await raiseTarget(trx, orgId, toMs);
}

/**
 * What a clock's background pass runs: each org whose sandbox has work due by its clock now, or an advance under way
 * (one whose process stopped before it finished), runs it. Real time moves every clock, so an ACH payment made before
 * the cut-off is submitted at the cut-off without an advance. Returns how many items ran.
 */
export async function runDueEverywhere(deps: ClockDeps, orgIds: readonly string[]): Promise<number> {
  let ran = 0;
  for (const orgId of orgIds) {
    const clock = await clockRowOf(deps.database.db, orgId);
    const upTo = storedTime(new Date(Math.max(clock.targetMs ?? 0, deps.clock().getTime() + clock.offsetMs)));
    const due = await Promise.all(deps.sources.map((source) => source.next(deps.database.db, orgId, upTo, 1)));
    if (clock.targetMs !== null || due.some((items) => items.length > 0)) ran += await runDue(deps, orgId, null);
  }
  return ran;
}
