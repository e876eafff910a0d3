import { randomBytes } from 'node:crypto';
import type { Database, Db, Trx } from '../../../db/database.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import { storedTime } from '../../../platform/kit/time.ts';
import { type Claimed, type ClaimView, claimedBy, claimOf, readClaimView, takeClaimTurn } from './claims.repository.ts';
import { allocate, type Limits, limitsFor } from './fair.ts';

/** Endpoints with pending deliveries one claim looks at per mode; the next claim goes on after the last one. */
const WINDOW = 256;
/** Organisations whose last service is remembered, for the tie between equals (see fair.ts); the oldest go first. */
const SERVED_KEPT = 10_000;
/** Claims in a row that took nothing from a full window and look on at once; then the next poke or poll goes on. */
const SWEEPS = 4;
const MODES: Mode[] = ['live', 'sandbox'];

/** This process's attempts in flight. An attempt whose lease was taken (a manual retry) still counts here. */
export interface Load {
  byMode: Record<Mode, number>;
  orgs: Map<string, number>;
  endpoints: Map<string, number>;
}

/** Counts a claimed delivery's attempt as in flight in this process; returns what ends it. */
export function track(load: Load, claimed: Claimed): () => void {
  const { mode, org_id: org, endpoint_id: endpoint } = claimed.delivery;
  const add = (by: number) => {
    load.byMode[mode] += by;
    for (const [map, key] of [
      [load.orgs, `${mode}:${org}`],
      [load.endpoints, endpoint],
    ] as const) {
      const n = (map.get(key) ?? 0) + by;
      if (n === 0) map.delete(key);
      else map.set(key, n);
    }
  };
  add(1);
  return () => add(-1);
}

export interface Claimer {
  load: Load;
  /**
   * Claims due deliveries by the policy of fair.ts, at most `take()` (asked again right before each decision).
   * `first`: work for the same write, done before the claim decides (the results of finished attempts: what they
   * free counts at once, and one write, one commit, serves both). `more`: a look right away may find others.
   */
  claim(
    now: Date,
    take: () => number,
    leaseUntil: Date,
    first?: (trx: Trx) => Promise<void>,
  ): Promise<{ claimed: Claimed[]; more: boolean }>;
}

/**
 * The claim: a read decides what to take (so that a claim that would take nothing costs no write), then one write
 * takes it, up to every free slot at once. With other processes claiming (`shared`: several delivery processes, or
 * PostgreSQL) the write takes the claims' turn (an advisory lock on PostgreSQL; on SQLite the write lock its
 * `BEGIN IMMEDIATE` holds), reads again and decides again, so that the bounds count every process's attempts.
 */
export function claimer(database: Database, concurrency: number, sharedFile: boolean): Claimer {
  const limits = limitsFor(concurrency);
  const load: Load = { byMode: { live: 0, sandbox: 0 }, orgs: new Map(), endpoints: new Map() };
  const cursor: Record<Mode, string> = { live: '', sandbox: '' };
  const served = new Map<string, number>();
  let serial = 0;
  let sweeps = 0;
  // Other processes claim too: the write takes the claims' turn and decides again.
  const shared = sharedFile || !database.singleWriter;

  async function decide(db: Db, now: string, take: number, after: Record<Mode, string>) {
    const views = new Map<Mode, ClaimView>();
    const plans = new Map<Mode, Map<string, number>>();
    let order: string[] = [];
    let taken = 0;
    for (const mode of MODES) {
      const free = freeIn(mode, taken, load, limits);
      if (Math.min(free, take - taken) <= 0) continue;
      const view = await readClaimView(db, mode, { after: after[mode], window: WINDOW, now, most: free });
      views.set(mode, view);
      const { inFlight } = view;
      // Attempts whose lease a manual retry took are no longer claimed rows, but they still hold a slot here.
      for (const [key, n] of load.orgs)
        if (key.startsWith(`${mode}:`)) {
          const org = key.slice(mode.length + 1);
          inFlight.orgs.set(org, Math.max(n, inFlight.orgs.get(org) ?? 0));
        }
      for (const [endpoint, n] of load.endpoints)
        inFlight.endpoints.set(endpoint, Math.max(n, inFlight.endpoints.get(endpoint) ?? 0));
      const slots = { take: take - taken, free };
      const lastServed = (org: string) => served.get(`${mode}:${org}`) ?? -1;
      const plan = allocate(view.heads, inFlight, slots, limits.perOrg[mode], limits.reserve, lastServed);
      plans.set(mode, plan.take);
      order = order.concat(plan.served.map((org) => `${mode}:${org}`));
      for (const n of plan.take.values()) taken += n;
    }
    return { views, plans, order, taken };
  }

  return {
    load,
    async claim(at, take, leaseUntil, first?: (trx: Trx) => Promise<void>) {
      const now = storedTime(at);
      const after = { ...cursor };
      let full = false;
      const looked = (views: Map<Mode, ClaimView>) => {
        for (const [mode, view] of views) cursor[mode] = view.full ? view.last! : '';
        full = [...views.values()].some((view) => view.full);
      };
      const nothing = () => {
        sweeps = full ? sweeps + 1 : 0;
        return { claimed: [], more: full && sweeps < SWEEPS };
      };
      // With results to record, the write happens anyway; shared, it decides again inside it: a read before it
      // would decide for nothing (two reads per mode and round, each a statement of the delivery's cost).
      const read = shared && first !== undefined ? undefined : await decide(database.db, now, take(), after);
      if (read !== undefined) looked(read.views);
      if (read !== undefined && read.taken === 0 && first === undefined) return nothing();
      const token = randomBytes(12).toString('base64url');
      const lease = storedTime(leaseUntil);
      const { claimed, order, taken, views } = await database.write(async (trx) => {
        await first?.(trx);
        let decided = read;
        if (shared || decided === undefined) {
          takeClaimTurn(trx);
          decided = await decide(trx, now, take(), after);
        }
        for (const [mode, plan] of decided.plans)
          for (const [endpoint, limit] of plan) claimOf(trx, { mode, endpoint, now, lease, token, limit });
        const claimed = decided.taken > 0 ? await claimedBy(trx, token) : [];
        return { claimed, order: decided.order, taken: decided.taken, views: decided.views };
      });
      if (read === undefined) looked(views);
      if (claimed.length === 0) return nothing();
      sweeps = 0;
      for (const key of order) {
        served.delete(key); // re-inserted last: the map stays in order of service, oldest first
        served.set(key, ++serial);
      }
      if (served.size > SERVED_KEPT) for (const key of [...served.keys()].slice(0, SERVED_KEPT / 2)) served.delete(key);
      return { claimed, more: full || claimed.length === taken };
    },
  };
}

/** Slots of `mode` free in this process, after `taken` claimed just now (live is decided first). */
function freeIn(mode: Mode, taken: number, load: Load, limits: Limits): number {
  const all = limits.concurrency - load.byMode.live - load.byMode.sandbox - taken;
  return mode === 'live' ? all : Math.min(all, limits.sandbox - load.byMode.sandbox);
}
