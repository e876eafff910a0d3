import { type RawBuilder, sql } from 'kysely';
import type { Db, Trx } from '../../../db/database.ts';
import { prepared, preparedSend } from '../../../db/prepared.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import { PENDING } from '../api/deliveries.repository.ts';
import type { WebhookDeliveriesTable } from '../tables.ts';
import type { Head, InFlight } from './fair.ts';

/** What a worker needs for one attempt, read in the claim's own write. */
export interface Claimed {
  delivery: WebhookDeliveriesTable;
  body: string;
  eventCreatedAt: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: string | null;
}

// `status = 'pending'` is a literal wherever an index of pending rows should serve (see PENDING).

/** A raw statement compiled once like `prepared` (which types builders only; raw SQL runs the same way). */
const preparedRaw = <P extends object, R>(params: { [K in keyof P]-?: true }, build: (p: P) => RawBuilder<R>) =>
  prepared<P, R>(params, (db, p) => ({ compile: () => build(p).compile(db) }) as never);

/**
 * A LIMIT is written into the SQL, never bound: SQLite (3.53, node:sqlite's) re-prepares a statement whose LIMIT (or
 * a count compared like one) is a bound parameter at every run, whatever the value, as if its schema had changed;
 * for the heads query below that cost more than running it (bench/FINDINGS.md, "Deliveries at a real load"). So one
 * statement is compiled per value: a few, as the values are slot counts (at most WEBHOOK_CONCURRENCY).
 */
function perValue<T>(make: (...values: number[]) => T): (...values: number[]) => T {
  const made = new Map<string, T>();
  return (...values) => {
    const key = values.join(',');
    let one = made.get(key);
    if (one === undefined) {
      if (!values.every(Number.isSafeInteger)) throw new Error(`not a whole number: ${key}`);
      one = make(...values);
      made.set(key, one);
    }
    return one;
  };
}

type HeadsParams = { mode: Mode; after: string; now: string };
type HeadRow = {
  endpoint_id: string;
  org_id: string | null;
  failing: number;
  due: number | string;
  due_at: string | null;
};
// The endpoints with pending deliveries, from `after` on, `window` at most: one index step each (a loose scan of
// webhook_deliveries_pending_idx), whatever their backlogs; then for each, its due deliveries (counted up to `most`)
// and the oldest one's due time.
const headsFrom = perValue((window, most) =>
  preparedRaw<HeadsParams, HeadRow>(
    { mode: true, after: true, now: true },
    (p) => sql<HeadRow>`with recursive heads(endpoint_id, n) as (
      select (select endpoint_id from webhook_deliveries
        where status = 'pending' and mode = ${p.mode} and endpoint_id > ${p.after}
        order by endpoint_id limit 1), 1
      union all
      select (select d.endpoint_id from webhook_deliveries d
        where d.status = 'pending' and d.mode = ${p.mode} and d.endpoint_id > heads.endpoint_id
        order by d.endpoint_id limit 1), heads.n + 1
      from heads where heads.endpoint_id is not null and heads.n < ${sql.lit(window)})
    select heads.endpoint_id,
      (select w.org_id from webhook_endpoints w where w.id = heads.endpoint_id) as org_id,
      (select case when w.failing_since is null then 0 else 1 end from webhook_endpoints w
        where w.id = heads.endpoint_id) as failing,
      (select count(*) from (select 1 from webhook_deliveries d
        where d.status = 'pending' and d.mode = ${p.mode} and d.endpoint_id = heads.endpoint_id
          and d.next_attempt_at <= ${p.now}
        limit ${sql.lit(most)}) as due_rows) as due,
      (select d.next_attempt_at from webhook_deliveries d
        where d.status = 'pending' and d.mode = ${p.mode} and d.endpoint_id = heads.endpoint_id
        order by d.next_attempt_at limit 1) as due_at
    from heads where heads.endpoint_id is not null
    order by heads.n`,
  ),
);

type BusyRow = { org_id: string; endpoint_id: string; n: number | string };
// Attempts in flight anywhere: claimed rows whose lease has not ended. Only the claim's condition is in the WHERE,
// so that webhook_deliveries_claim_idx serves it (it holds only claimed rows, a few per slot of every process).
const busyRows = preparedRaw<{ mode: Mode; now: string }, BusyRow>(
  { mode: true, now: true },
  (p) => sql<BusyRow>`select org_id, endpoint_id,
      sum(case when status = 'pending' and next_attempt_at > ${p.now} then 1 else 0 end) as n
    from webhook_deliveries where claim is not null and mode = ${p.mode}
    group by org_id, endpoint_id`,
);

/** What one claim decides from, in one mode: endpoints with due deliveries (a window of them) and the load. */
export interface ClaimView {
  heads: Head[];
  inFlight: InFlight;
  /** The window was full: more endpoints follow the last one. */
  full: boolean;
  last: string | undefined;
}

export async function readClaimView(
  db: Db,
  mode: Mode,
  p: { after: string; window: number; now: string; most: number },
): Promise<ClaimView> {
  const heads$ = headsFrom(p.window, p.most)(db, { mode, after: p.after, now: p.now });
  const [heads, busy] = await Promise.all([heads$, busyRows(db, { mode, now: p.now })]);
  const inFlight: InFlight = { orgs: new Map(), endpoints: new Map() };
  for (const row of busy.rows) {
    const n = Number(row.n);
    if (n === 0) continue;
    inFlight.orgs.set(row.org_id, (inFlight.orgs.get(row.org_id) ?? 0) + n);
    inFlight.endpoints.set(row.endpoint_id, n);
  }
  return {
    // An endpoint deleted since its deliveries were read has no organisation: nothing of it is claimed.
    heads: heads.rows.flatMap((r) =>
      r.org_id === null
        ? []
        : [
            {
              endpointId: r.endpoint_id,
              orgId: r.org_id,
              failing: Number(r.failing) === 1,
              due: Number(r.due),
              dueAt: r.due_at ?? '',
            },
          ],
    ),
    inFlight,
    full: heads.rows.length >= p.window,
    last: heads.rows.at(-1)?.endpoint_id,
  };
}

/**
 * Claims take turns across processes, so that each counts the attempts in flight after the previous claim committed,
 * and the bounds hold across processes (sent; the next read waits for it).
 */
export function takeClaimTurn(trx: Trx): void {
  trx.takeTurn('plinth.webhooks.claims');
}

type Claim = { mode: Mode; endpoint: string; now: string; lease: string; token: string; limit: number };
const CLAIM = { mode: true, endpoint: true, now: true, lease: true, token: true } as const;
// One endpoint's oldest due rows, `FOR UPDATE SKIP LOCKED` (PostgreSQL), so that a row a settle or a retry holds
// is left for the next claim rather than waited for.
const claimRows = perValue((limit) =>
  preparedSend<Omit<Claim, 'limit'>>(CLAIM, (db, p) =>
    db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: p.lease, claim: p.token })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where(PENDING)
          .where('mode', '=', p.mode)
          .where('endpoint_id', '=', p.endpoint)
          .where('next_attempt_at', '<=', p.now)
          .orderBy('next_attempt_at')
          .limit(sql.lit(limit))
          .forUpdate()
          .skipLocked(),
      ),
  ),
);

/** Claims up to `limit` of an endpoint's due deliveries for `token` (sent, not awaited; read back by `claimedBy`). */
export function claimOf(trx: Trx, claim: Claim): void {
  const { limit, ...rest } = claim;
  claimRows(limit)(trx, rest);
}

interface ClaimedExtras {
  body: string;
  event_created_at: string;
  url: string;
  endpoint_secret: string;
  previous_secret: string | null;
  previous_expires_at: string | null;
}
const claimedRows = prepared<{ token: string }, WebhookDeliveriesTable & ClaimedExtras>({ token: true }, (db, p) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .selectAll('d')
    .select(['e.body', 'e.created_at as event_created_at', 'w.url', 'w.secret as endpoint_secret'])
    .select(['w.previous_secret', 'w.previous_expires_at'])
    .where('d.claim', '=', p.token),
);

/**
 * The rows this claim's token holds, with what an attempt needs. The delivery is copied column by column: node:sqlite's
 * rows are null-prototype objects in dictionary mode, and a rest pattern (`...d`) copied them on V8's slow path,
 * ~36k instructions a delivery (bench/FINDINGS.md, issue 44).
 */
export async function claimedBy(trx: Trx, token: string): Promise<Claimed[]> {
  const { rows } = await claimedRows(trx, { token });
  return rows.map((r) => ({
    delivery: {
      id: r.id,
      org_id: r.org_id,
      mode: r.mode,
      endpoint_id: r.endpoint_id,
      event_id: r.event_id,
      status: r.status,
      attempts: r.attempts,
      scheduled_attempts: r.scheduled_attempts,
      manual: r.manual,
      next_attempt_at: r.next_attempt_at,
      claim: r.claim,
      created_at: r.created_at,
    },
    body: r.body,
    eventCreatedAt: r.event_created_at,
    url: r.url,
    secret: r.endpoint_secret,
    previousSecret: r.previous_secret,
    previousExpiresAt: r.previous_expires_at,
  }));
}
