import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database, Trx } from '../../db/database.ts';
import { prepared, preparedSend } from '../../db/prepared.ts';
import { type AfterNumbered, type Draft, type EventBody, type EventOwner, numberEvents } from './numbering.ts';
import type { EventsTable } from './tables.ts';

/**
 * PostgreSQL numbers events off the write path (docs/api.md#events). A write records its events without a number; the
 * last statement before its COMMIT inserts them with an ordering key from a sequence (`position`, one per write). A
 * sequencer pass, one at a time across every process (a transaction-scoped advisory lock), takes the unnumbered events
 * its snapshot sees in `position` order, gives each org and mode the next numbers of its counter, fixes each body's
 * bytes, and creates their webhook deliveries, all in one transaction: a pass that dies loses and duplicates nothing.
 *
 * Why that order is right: if write B could see write A's result (it read it, or began after A committed), A had
 * committed before B's last statement drew B's key, and A's key was drawn before A committed: so A's key is smaller,
 * and A is numbered first, or A was already numbered by an earlier pass. Either way a receiver never meets an effect
 * numbered before its cause. Writes that could not see each other may be numbered in either order. Keys of
 * rolled-back writes are simply never seen (gaps in `position` are harmless; numbers have none).
 */

/** The turn every pass takes, whichever process runs it (tests hold it to stand for a pass; db/transaction.ts). */
export const SEQUENCER_TURN = 'plinth.events.sequencer';
/** Events numbered per pass; a full pass is followed by another at once. */
export const PASS_LIMIT = 500;

type Insert = {
  org_id: string;
  mode: string;
  created_at: string;
  request_id: string | null;
  ids: string[];
  types: string[];
  bodies: string[];
};
// One statement per write whatever its number of events; the key is one scalar subquery, evaluated once.
const insertUnnumbered = preparedSend<Insert>(
  { org_id: true, mode: true, created_at: true, request_id: true, ids: true, types: true, bodies: true },
  (db, p) => ({
    compile: () =>
      sql`insert into events (id, org_id, mode, type, body, created_at, request_id, position, position_index)
        select t.id, ${p.org_id}, ${p.mode}, t.type, t.body, ${p.created_at}, ${p.request_id},
          (select nextval('event_order')), t.ord
        from unnest(${p.ids}::text[], ${p.types}::text[], ${p.bodies}::text[]) with ordinality as t(id, type, body, ord)`.compile(
        db,
      ),
  }),
);

/** The write's events, unnumbered (PostgreSQL): sent as the last statement before its COMMIT (see emit.ts). */
export function recordUnnumbered(trx: Trx, owner: EventOwner, drafts: Draft[]): void {
  insertUnnumbered(trx, {
    org_id: owner.orgId,
    mode: owner.mode,
    created_at: drafts[0]!.row.created_at,
    request_id: drafts[0]!.event.request?.id ?? null,
    ids: drafts.map((d) => d.row.id),
    types: drafts.map((d) => d.row.type),
    bodies: drafts.map((d) => JSON.stringify(d.event)),
  });
}

const unnumbered = prepared<{ limit: number }, Omit<EventsTable, 'sequence'>>({ limit: true }, (db, p) =>
  db
    .selectFrom('events')
    .select(['id', 'org_id', 'mode', 'type', 'body', 'created_at'])
    .where('sequence', 'is', null)
    .orderBy('position')
    .orderBy('position_index')
    .limit(p.limit),
);
type Numbers = {
  ids: string[];
  orgs: string[];
  modes: string[];
  sequences: number[];
  bodies: string[];
  hashes: string[];
};
// The numbers, the bodies and the chain's rows (chain.ts) in one statement.
const setNumbers = preparedSend<Numbers>(
  { ids: true, orgs: true, modes: true, sequences: true, bodies: true, hashes: true },
  (db, p) => ({
    compile: () =>
      sql`with v as (
          select * from unnest(${p.ids}::text[], ${p.orgs}::text[], ${p.modes}::text[], ${p.sequences}::bigint[],
            ${p.bodies}::text[], ${p.hashes}::text[]) as v(id, org_id, mode, sequence, body, hash)
        ), chained as (
          insert into event_chain (org_id, mode, sequence, event_id, hash)
          select org_id, mode, sequence, id, hash from v
        )
        update events as e set sequence = v.sequence, body = v.body from v where e.id = v.id`.compile(db),
  }),
);

/**
 * One sequencer pass in the caller's write: null when another pass holds the lock (`wait`: wait for it instead).
 * The lock and the read go out together; PostgreSQL runs the read after the lock is granted, with a snapshot taken
 * then, so it sees every pass that committed before.
 */
export async function numberPending(
  trx: Trx,
  afterNumbered: AfterNumbered,
  options: { wait?: boolean; limit?: number } = {},
): Promise<EventsTable[] | null> {
  let turn: Promise<boolean>;
  if (options.wait) {
    trx.takeTurn(SEQUENCER_TURN);
    turn = Promise.resolve(true);
  } else turn = trx.tryTurn(SEQUENCER_TURN);
  const pending = unnumbered(trx, { limit: options.limit ?? PASS_LIMIT });
  const [granted, { rows }] = await Promise.all([turn, pending]);
  if (!granted) return null;
  if (rows.length === 0) return [];
  const drafts = rows.map(({ body, ...row }): Draft => ({ row, event: JSON.parse(body) as EventBody }));
  const numbered = await numberEvents(trx, drafts);
  setNumbers(trx, {
    ids: numbered.map((e) => e.id),
    orgs: numbered.map((e) => e.org_id),
    modes: numbered.map((e) => e.mode),
    sequences: numbered.map((e) => Number(e.sequence)),
    bodies: numbered.map((e) => e.body),
    hashes: numbered.map((e) => e.hash),
  });
  await afterNumbered(trx, numbered);
  return numbered;
}

export interface Sequencer {
  /** A write recorded events: make sure a pass runs after it (coalesced; never waits). */
  poke(): void;
  /** Resolves once a pass that began after this call has run (every event committed before it is numbered). */
  caughtUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface SequencerDeps {
  database: Database;
  afterNumbered: AfterNumbered;
  log: FastifyBaseLogger;
  /** Seconds from each event's creation to its number. */
  observeLag?: (seconds: number) => void;
  /** How often to look without a poke (events of a writer that died before waking anyone). */
  pollMs?: number;
}

const BUSY_RETRY_MS = 10;

/**
 * The sequencer of one process (PostgreSQL). Every process that commits events pokes its own; passes take turns
 * through the advisory lock, and a process whose pass found the lock taken tries again shortly, so the lag from commit
 * to number is a pass or two, not a poll interval. SQLite numbers inline and needs none (`idleSequencer`).
 */
export function startSequencer(deps: SequencerDeps): Sequencer {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let passes = 0;
  // Who waits for a pass that begins after they asked: `after` is the number of passes begun when they asked.
  let waiters: { after: number; resolve: () => void }[] = [];

  async function loop(): Promise<void> {
    while (again && !stopped) {
      again = false;
      const startedPass = ++passes;
      try {
        const numbered = await deps.database.write((trx) => numberPending(trx, deps.afterNumbered));
        if (numbered === null) {
          again = true;
          await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
          continue;
        }
        if (numbered.length === PASS_LIMIT) again = true;
        const now = Date.now();
        for (const event of numbered) deps.observeLag?.((now - Date.parse(event.created_at)) / 1000);
        const done = waiters.filter((w) => w.after < startedPass);
        waiters = waiters.filter((w) => w.after >= startedPass);
        for (const waiter of done) waiter.resolve();
      } catch (error) {
        deps.log.warn({ err: error }, 'event sequencer pass failed; will retry');
        again = true;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    running = null;
  }

  function poke(): void {
    again = true;
    if (running === null && !stopped) running = loop();
  }
  const timer = setInterval(poke, deps.pollMs ?? 1000);
  timer.unref();

  return {
    poke,
    caughtUp(timeoutMs = 2000) {
      if (stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const waiter = { after: passes, resolve };
        waiters.push(waiter);
        setTimeout(resolve, timeoutMs).unref();
        poke();
      });
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      for (const waiter of waiters) waiter.resolve();
      waiters = [];
    },
  };
}

/** SQLite's: events are numbered in their own write, so there is never anything to wait for. */
export const idleSequencer: Sequencer = {
  poke: () => {},
  caughtUp: async () => {},
  stop: async () => {},
};
