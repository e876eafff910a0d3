import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Trx } from '../../db/database.ts';
import { preparedInsertRows, preparedWrite } from '../../db/prepared.ts';
import type { Mode } from '../keys/principal.ts';
import { newId } from '../kit/ids.ts';
import { apiTime, storedTime } from '../kit/time.ts';
import { fanOut } from '../webhooks/fan-out.ts';
import type { EventType } from './events.schema.ts';
import type { EventsTable } from './tables.ts';

/** Whose event it is: an API principal fits, and so does an operator's `{ orgId, mode }`. */
export interface EventOwner {
  orgId: string;
  mode: Mode;
}

/** The API request that caused an event (CONTRACT §11); null for the operator CLI and background work. */
export interface EventRequest {
  id: string;
  idempotency_key: string | null;
}

export function requestOf(request: FastifyRequest): EventRequest {
  const key = request.headers['idempotency-key'];
  return { id: String(request.id), idempotency_key: typeof key === 'string' ? key : null };
}

/**
 * The last of `count` consecutive sequence numbers of the owner's events, drawn inside the caller's write. The counter
 * row is updated in the same transaction as the events: a rolled-back write gives its numbers back (no gaps), and on
 * PostgreSQL the row lock, held until commit, makes the next write of the same org and mode wait, so numbers commit
 * in order. On SQLite the group commit runs one write at a time.
 */
async function drawSequences(trx: Trx, owner: EventOwner, count: number): Promise<number> {
  const { rows } = await drawSequence(trx, { org_id: owner.orgId, mode: owner.mode, count });
  return Number(rows[0]!.last_sequence);
}

const drawSequence = preparedWrite<{ org_id: string; mode: Mode; count: number }, { last_sequence: number | string }>(
  { org_id: true, mode: true, count: true },
  (db, p) =>
    db
      .insertInto('event_sequences')
      .values({ org_id: p.org_id, mode: p.mode, last_sequence: p.count })
      .onConflict((c) =>
        c.columns(['org_id', 'mode']).doUpdateSet({ last_sequence: sql`event_sequences.last_sequence + ${p.count}` }),
      )
      .returning('last_sequence'),
);

const insertEvents = preparedInsertRows('events', {
  id: true,
  org_id: true,
  mode: true,
  type: true,
  sequence: true,
  body: true,
  created_at: true,
});

export interface EmitOptions {
  /** When the change happened; defaults to now. */
  at?: Date;
  /** Deliver to this endpoint only, whatever it subscribes to (`webhook_endpoint.test`). */
  onlyEndpoint?: string;
}

/** One change to report: the event's type and the resource after the change. */
export interface Change {
  type: EventType;
  object: object;
}

/**
 * Records an event in the caller's write (the transactional outbox) and a pending delivery for every enabled
 * endpoint of the owner that subscribes to its type. Call it inside the same `trx` as the change it reports, so
 * that there is no change without its event and no event without its change:
 *
 *   await emitEvent(trx, principal, 'fintech.account.frozen', accountFromRow(row), request);
 *
 * The body's bytes are fixed here; every delivery and every retry sends exactly them.
 */
export async function emitEvent(
  trx: Trx,
  owner: EventOwner,
  type: EventType,
  object: object,
  request: EventRequest | null,
  options: EmitOptions = {},
): Promise<EventsTable> {
  const [row] = await emitEvents(trx, owner, [{ type, object }], request, options);
  return row!;
}

/**
 * Several events of one write (a transfer and its two transactions), numbered consecutively in the order given:
 * what `emitEvent` does for each, with one draw of the counter and one look at the owner's endpoints.
 */
export async function emitEvents(
  trx: Trx,
  owner: EventOwner,
  changes: Change[],
  request: EventRequest | null,
  options: EmitOptions = {},
): Promise<EventsTable[]> {
  const at = options.at ?? new Date();
  const last = await drawSequences(trx, owner, changes.length);
  const livemode = owner.mode === 'live';
  const createdAt = apiTime(at.toISOString());
  const rows: EventsTable[] = [];
  for (const [i, { type, object }] of changes.entries()) {
    const id = newId('evt', at.getTime());
    const sequence = last - changes.length + 1 + i;
    const event = { id, object: 'event', type, sequence, data: { object }, request, livemode, created_at: createdAt };
    const row: EventsTable = {
      id,
      org_id: owner.orgId,
      mode: owner.mode,
      type,
      sequence,
      body: JSON.stringify(event),
      created_at: storedTime(at),
    };
    rows.push(row);
  }
  await insertEvents(trx, rows);
  await fanOut(trx, owner, rows, at, options.onlyEndpoint);
  return rows;
}
