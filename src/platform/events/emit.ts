import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Trx } from '../../db/database.ts';
import { preparedInsertRows, preparedWrite } from '../../db/prepared.ts';
import type { Mode } from '../keys/principal.ts';
import { newId } from '../kit/ids.ts';
import { apiTime, type Clock, storedTime } from '../kit/time.ts';
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
 * What happens to a write's events once they are recorded, in the same transaction: the webhooks module creates their
 * deliveries (webhooks/fan-out.ts). The events module knows only this signature; app.ts wires the two together.
 */
export type AfterRecord = (trx: Trx, owner: EventOwner, events: EventsTable[], onlyEndpoint?: string) => Promise<void>;

/** Records the events of a write: built once at start-up (`eventRecorder`) and handed to every service that writes. */
export interface EventRecorder {
  /**
   * Records the events of one write in the caller's `trx` (the transactional outbox), numbered consecutively in the
   * order given, so that there is no change without its events and no event without its change:
   *
   *   await deps.events.emit(trx, owner, [{ type: 'fintech.account.frozen', object: accountFromRow(row) }], request);
   *
   * Each body's bytes are fixed here; every delivery and every retry sends exactly them.
   */
  emit(
    trx: Trx,
    owner: EventOwner,
    changes: Change[],
    request: EventRequest | null,
    options?: EmitOptions,
  ): Promise<EventsTable[]>;
}

export function eventRecorder(deps: { clock: Clock; afterRecord: AfterRecord }): EventRecorder {
  return {
    async emit(trx, owner, changes, request, options = {}) {
      const at = options.at ?? deps.clock();
      const last = await drawSequences(trx, owner, changes.length);
      const livemode = owner.mode === 'live';
      const createdAt = apiTime(at.toISOString());
      const rows = changes.map(({ type, object }, i): EventsTable => {
        const id = newId('evt', at.getTime());
        const sequence = last - changes.length + 1 + i;
        const event = {
          id,
          object: 'event',
          type,
          sequence,
          data: { object },
          request,
          livemode,
          created_at: createdAt,
        };
        return {
          id,
          org_id: owner.orgId,
          mode: owner.mode,
          type,
          sequence,
          body: JSON.stringify(event),
          created_at: storedTime(at),
        };
      });
      await insertEvents(trx, rows);
      await deps.afterRecord(trx, owner, rows, options.onlyEndpoint);
      return rows;
    },
  };
}
