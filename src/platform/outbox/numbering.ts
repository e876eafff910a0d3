import { sql } from 'kysely';
import type { Trx } from '../../db/database.ts';
import { preparedWrite } from '../../db/prepared.ts';
import type { Mode } from '../auth/principal.ts';
import type { Owner } from '../operations/context.ts';
import { type ChainTable, genesisHash, hashOf } from './chain.ts';
import type { EventsTable } from './tables.ts';

/** Whose event it is: an API principal fits, and so does an operator's `{ orgId, mode }`. */
export type EventOwner = Owner;

/**
 * What happens to events once they are numbered, in the same transaction: the webhooks module creates their deliveries
 * (webhooks/fan-out.ts). The events module knows only this signature; app.ts wires the two together.
 */
export type AfterNumbered = (trx: Trx, events: EventsTable[]) => Promise<void>;

/** An event as delivered, before its number: `sequence` is null until `numberEvents` gives it one. */
export interface EventBody {
  id: string;
  object: 'event';
  type: string;
  sequence: number | null;
  /** The hash of the previous event's body of the org and mode (chain.ts); null until numbered. */
  chain: { prev: string } | null;
  data: { object: object };
  request: { id: string; idempotency_key: string | null } | null;
  livemode: boolean;
  created_at: string;
}

/** An event waiting for its number, with its body as an object (so that numbering serializes it once). */
export interface Draft {
  row: Omit<EventsTable, 'sequence' | 'body'>;
  event: EventBody;
}

/** A numbered event, with the hash of its body: what the chain's row holds (chain.ts). */
export type Numbered = EventsTable & { hash: string };

// The counter's draw and the previous event's hash in one statement: the hash is the chain row of the number before
// the first drawn (none before the first event: the genesis hash).
const drawSequence = preparedWrite<
  { org_id: string; mode: Mode; count: number },
  { last_sequence: number | string; prev: string | null }
>({ org_id: true, mode: true, count: true }, (db, p) =>
  db
    .insertInto('event_sequences')
    .values({ org_id: p.org_id, mode: p.mode, last_sequence: p.count })
    .onConflict((c) =>
      c.columns(['org_id', 'mode']).doUpdateSet({ last_sequence: sql`event_sequences.last_sequence + ${p.count}` }),
    )
    .returning([
      'last_sequence',
      sql<string | null>`(select c.hash from event_chain c where c.org_id = event_sequences.org_id
        and c.mode = event_sequences.mode and c.sequence = event_sequences.last_sequence - ${p.count})`.as('prev'),
    ]),
);

/**
 * Numbers events in the order given: each org and mode's events take the next numbers of its counter, drawn in this
 * write (a rolled-back write gives them back: no gaps), and each body's bytes are fixed here, number and the previous
 * body's hash included (chain.ts). The caller writes each event's chain row in the same write. SQLite numbers a
 * write's own events inline (its single writer commits in order); on PostgreSQL only the sequencer calls this, one
 * pass at a time (sequencer.ts), so the counter rows are never a lock that writes queue for.
 */
export async function numberEvents(trx: Trx, drafts: Draft[]): Promise<Numbered[]> {
  const owners = new Map<string, { org_id: string; mode: Mode; count: number; next: number; prev: string }>();
  for (const { row } of drafts) {
    const key = `${row.org_id}\n${row.mode}`;
    const owner = owners.get(key) ?? { org_id: row.org_id, mode: row.mode, count: 0, next: 0, prev: '' };
    owner.count++;
    owners.set(key, owner);
  }
  // One draw per owner, issued together: one round trip on PostgreSQL however many owners a pass holds.
  await Promise.all(
    [...owners.values()].map(async (owner) => {
      const { rows } = await drawSequence(trx, { org_id: owner.org_id, mode: owner.mode, count: owner.count });
      owner.next = Number(rows[0]!.last_sequence) - owner.count + 1;
      owner.prev = rows[0]!.prev ?? genesisHash(owner.org_id, owner.mode);
    }),
  );
  return drafts.map(({ row, event }) => {
    const owner = owners.get(`${row.org_id}\n${row.mode}`)!;
    const sequence = owner.next++;
    const body = JSON.stringify({ ...event, sequence, chain: { prev: owner.prev } });
    const hash = hashOf(body);
    owner.prev = hash;
    return { ...row, sequence, body, hash };
  });
}

/** A numbered event's row in the chain. */
export const chainRow = (e: Numbered): ChainTable => ({
  org_id: e.org_id,
  mode: e.mode,
  sequence: Number(e.sequence),
  event_id: e.id,
  hash: e.hash,
});
