import type { Db } from '../../db/database.ts';
import { allows, type KeyPermissions } from '../../platform/auth/permissions.ts';
import type { Owner } from '../../platform/operations/context.ts';
import { type EventCheck, genesisHash, hashOf } from '../../platform/outbox/chain.ts';
import type { Checkpoint } from './note.ts';

/**
 * `cli audit verify` and the dashboard's "Verify" (docs/api.md#verifying-the-history): an org and mode's chain
 * recomputed from the store, streamed a page at a time (a million events are never held at once):
 *   - the chain's rows numbered 1, 2, 3… with no gap, up to the counter's last number;
 *   - every kept body hashing to its row's hash, naming its own id and number, and the previous row's hash as
 *     `chain.prev` (bodies numbered before the chain existed name none; they come first);
 *   - every module's rows agreeing with the bodies that reported them (`EventCheck`: fintech's transactions);
 *   - given a checkpoint, the chain extending it: as long, and the same hash at its size.
 * The first problem, by sequence, is the answer's `failure`.
 */

export interface Problem {
  /** The event's number; null for a row no event reported. */
  sequence: number | null;
  table: string;
  why: string;
}

export interface Verified {
  origin: string;
  /** The chain's length (its last number). */
  size: number;
  /** Its head hash (genesis when empty). */
  hash: string;
  /** Bodies checked, and chain rows whose body has expired (EVENT_RETENTION_DAYS). */
  bodies: number;
  expired: number;
  /** Rows checked against their events, per table. */
  rows: Record<string, number>;
  /** The first problem (lowest sequence), and how many were found. */
  failure: Problem | null;
  problems: number;
}

const PAGE = 2_000;
const CHECK_BATCH = 500;
/** Past this many the run stops: the first is what matters. */
const ENOUGH = 100;

export const originOf = (owner: Owner) => `plinth/${owner.orgId}/${owner.mode}`;

interface Link {
  sequence: number | string;
  event_id: string;
  hash: string;
  body: string | null;
  created_at: string | null;
}

export async function verifyChain(
  db: Db,
  owner: Owner,
  options: {
    checks: readonly EventCheck[];
    checkpoint?: Checkpoint;
    /**
     * The reader's, when a key's (the dashboard): a row's values are shown only to a key that may read them
     * (`EventCheck.reads`). Absent or null: all of them (the operator's CLI, a full key).
     */
    permissions?: KeyPermissions | null;
  },
): Promise<Verified> {
  const problems: Problem[] = [];
  const fail = (sequence: number | null, table: string, why: string) => problems.push({ sequence, table, why });
  const genesis = genesisHash(owner.orgId, owner.mode);
  const checks = new Map(
    options.checks.map((c) => [
      c.type,
      { check: c, batch: [] as Batch, seen: new Set<string>(), showRows: allows(options.permissions ?? null, c.reads) },
    ]),
  );
  const rows: Record<string, number> = Object.fromEntries(options.checks.map((c) => [c.table, 0]));
  const flush = async (entry: { check: EventCheck; batch: Batch; showRows: boolean }) => {
    if (entry.batch.length === 0) return;
    rows[entry.check.table]! += entry.batch.length;
    for (const p of await entry.check.check(db, owner, entry.batch, entry.showRows))
      fail(p.sequence, entry.check.table, p.why);
    entry.batch = [];
  };

  // The counter before the chain: the chain read after it must reach at least its number.
  const last = await lastNumbered(db, owner);
  let prev = genesis;
  let size = 0;
  let bodies = 0;
  let expired = 0;
  let chained = false; // a body naming `chain.prev` was met: every later one must
  let oldestKept: string | null = null;
  let atCheckpoint: string | null = options.checkpoint?.size === 0 ? genesis : null;
  let after = 0;
  pages: for (;;) {
    const page: Link[] = await db
      .selectFrom('event_chain as c')
      .leftJoin('events as e', 'e.id', 'c.event_id')
      .select(['c.sequence', 'c.event_id', 'c.hash', 'e.body', 'e.created_at'])
      .where('c.org_id', '=', owner.orgId)
      .where('c.mode', '=', owner.mode)
      .where('c.sequence', '>', after)
      .orderBy('c.sequence')
      .limit(PAGE)
      .execute();
    for (const link of page) {
      const sequence = Number(link.sequence);
      if (sequence !== size + 1) {
        fail(size + 1, 'event_chain', `the chain has no row for ${size + 1} (the next is ${sequence})`);
        if (size === 0) prev = '';
      }
      if (link.body === null) expired++;
      else {
        bodies++;
        oldestKept ??= link.created_at;
        const body = parsed(link.body);
        const why = body === null ? 'its body is not JSON' : checkBody(link, body, sequence, prev, chained);
        if (why !== null) fail(sequence, 'events', why);
        if (body?.chain !== undefined) chained = true;
        const entry = body === null ? undefined : checks.get(body.type);
        if (entry !== undefined && body?.data?.object !== undefined) {
          entry.seen.add(body.data.object.id);
          entry.batch.push({ sequence, object: body.data.object });
          if (entry.batch.length >= CHECK_BATCH) await flush(entry);
        }
      }
      prev = link.hash;
      size = sequence;
      if (sequence === options.checkpoint?.size) atCheckpoint = link.hash;
      if (problems.length >= ENOUGH) break pages;
    }
    if (page.length < PAGE) break;
    after = Number(page.at(-1)!.sequence);
  }
  for (const entry of checks.values()) await flush(entry);

  if (last > size) fail(size + 1, 'event_chain', `events were numbered up to ${last}, but the chain ends at ${size}`);
  if (oldestKept !== null)
    for (const entry of checks.values()) {
      let missing = await entry.check.unreported(db, owner, oldestKept, entry.seen);
      // A row committed while the chain was read has its event numbered since, or still unnumbered (PostgreSQL):
      // those events are looked at before a row is called unreported.
      if (missing.length > 0) {
        const late = await reportedSince(db, owner, entry.check.type, size);
        missing = missing.filter((id) => !late.has(id));
      }
      for (const id of missing.slice(0, ENOUGH))
        fail(null, entry.check.table, `${id} was made at or after the oldest kept event, yet no event reports it`);
    }
  const checkpoint = options.checkpoint;
  if (checkpoint !== undefined) {
    if (checkpoint.origin !== originOf(owner))
      fail(null, 'checkpoint', `the checkpoint is of ${checkpoint.origin}, not ${originOf(owner)}`);
    else if (checkpoint.size > size)
      fail(size + 1, 'event_chain', `the chain (${size}) is shorter than the checkpoint (${checkpoint.size})`);
    else if (atCheckpoint !== checkpoint.hash)
      fail(
        checkpoint.size,
        'event_chain',
        `the chain at ${checkpoint.size} hashes to ${atCheckpoint}, the checkpoint says ${checkpoint.hash}`,
      );
  }
  const first = problems.reduce<Problem | null>((a, p) => (a === null || order(p) < order(a) ? p : a), null);
  return {
    origin: originOf(owner),
    size,
    hash: size === 0 ? genesis : prev,
    bodies,
    expired,
    rows,
    failure: first,
    problems: problems.length,
  };
}

async function lastNumbered(db: Db, owner: Owner): Promise<number> {
  const counter = await db
    .selectFrom('event_sequences')
    .select('last_sequence')
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  return Number(counter?.last_sequence ?? 0);
}

/** Ids of the objects reported by events of `type` numbered after `size`, or not yet numbered. */
async function reportedSince(db: Db, owner: Owner, type: string, size: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('events')
    .select('body')
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('type', '=', type)
    .where((eb) => eb.or([eb('sequence', 'is', null), eb('sequence', '>', size)]))
    .execute();
  return new Set(rows.map((r) => (JSON.parse(r.body) as { data: { object: { id: string } } }).data.object.id));
}

type Batch = { sequence: number; object: { id: string } & Record<string, unknown> }[];

/** Problems with a sequence first, by it; then the others, in the order found. */
const order = (p: Problem) => p.sequence ?? Number.MAX_SAFE_INTEGER;

interface Body {
  id?: unknown;
  type: string;
  sequence?: unknown;
  chain?: { prev?: unknown };
  data?: { object?: { id: string } & Record<string, unknown> };
}

function parsed(text: string): Body | null {
  try {
    return JSON.parse(text) as Body;
  } catch {
    return null;
  }
}

/** What is wrong with a kept body, or null. */
function checkBody(link: Link, body: Body, sequence: number, prev: string, chained: boolean): string | null {
  if (hashOf(link.body!) !== link.hash) return "its body does not hash to the chain's hash";
  if (body.id !== link.event_id) return `its body's id is ${JSON.stringify(body.id)}, the chain's ${link.event_id}`;
  if (body.sequence !== sequence) return `its body's sequence is ${JSON.stringify(body.sequence)}`;
  if (body.chain === undefined) return chained ? 'its body names no previous hash, though earlier ones do' : null;
  if (prev !== '' && body.chain.prev !== prev)
    return `its chain.prev ${JSON.stringify(body.chain.prev)} is not the previous event's hash ${prev}`;
  return null;
}
