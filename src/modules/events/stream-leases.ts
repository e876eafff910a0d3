import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { Mode } from '../../platform/auth/principal.ts';

/** One open event stream, wherever it is served: what EVENT_STREAMS_PER_ORG counts across processes. */
export interface EventStreamLeasesTable {
  id: string;
  org_id: string;
  mode: Mode;
  /** The server process that serves the stream (random per process). */
  process_id: string;
  /** Milliseconds since the epoch; bigint, PostgreSQL returns it as text. */
  expires_at: number | string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    event_stream_leases: EventStreamLeasesTable;
  }
}

/** How long a lease outlives its last renewal: a dead process's streams stop counting after at most this. */
export const LEASE_MS = 15_000;
/** How often a process renews the leases of the streams it serves. */
export const RENEW_MS = 5_000;

export interface StreamLeases {
  /** Takes a lease for one more stream of the owner; null when it already holds `perOrg` anywhere. */
  take(owner: { orgId: string; mode: Mode }, perOrg: number): Promise<string | null>;
  /** Keeps these leases (this process's open streams) alive for another LEASE_MS. */
  renew(ids: string[]): Promise<void>;
  release(ids: string[]): Promise<void>;
}

/**
 * The leases of open streams (docs/api.md#the-live-event-stream), in the database every server process shares. Taking
 * one is a write that holds the owner's turn (one at a time across processes), forgets the owner's expired leases,
 * counts the rest and adds one if there is room. A single writer (SQLite) is the only server on its file, so leases
 * another process left (a crash, then a restart) are forgotten at once.
 */
export function streamLeases(database: Database, now: () => number = Date.now): StreamLeases {
  const processId = randomUUID();
  return {
    take: (owner, perOrg) =>
      database.write(async (trx) => {
        trx.takeTurn(`event-stream-leases:${owner.orgId}:${owner.mode}`);
        await trx
          .deleteFrom('event_stream_leases')
          .where('org_id', '=', owner.orgId)
          .where('mode', '=', owner.mode)
          .where((eb) =>
            trx.singleWriter
              ? eb.or([eb('expires_at', '<', now()), eb('process_id', '<>', processId)])
              : eb('expires_at', '<', now()),
          )
          .execute();
        const { held } = await trx
          .selectFrom('event_stream_leases')
          .select((eb) => eb.fn.countAll<number | string>().as('held'))
          .where('org_id', '=', owner.orgId)
          .where('mode', '=', owner.mode)
          .executeTakeFirstOrThrow();
        if (Number(held) >= perOrg) return null;
        const id = randomUUID();
        await trx
          .insertInto('event_stream_leases')
          .values({ id, org_id: owner.orgId, mode: owner.mode, process_id: processId, expires_at: now() + LEASE_MS })
          .execute();
        return id;
      }),
    async renew(ids) {
      if (ids.length === 0) return;
      await database.write(async (trx) => {
        await trx
          .updateTable('event_stream_leases')
          .set({ expires_at: now() + LEASE_MS })
          .where('id', 'in', ids)
          .execute();
        // Leases that ran out long ago, of orgs that opened no stream since (taking one forgets its own): gone too.
        await trx
          .deleteFrom('event_stream_leases')
          .where('expires_at', '<', now() - LEASE_MS)
          .execute();
      });
    },
    async release(ids) {
      if (ids.length === 0) return;
      await database.write((trx) => trx.deleteFrom('event_stream_leases').where('id', 'in', ids).execute());
    },
  };
}
