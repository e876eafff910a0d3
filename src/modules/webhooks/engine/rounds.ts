import type { Database, Trx } from '../../../db/database.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import type { WebhookDeliveriesTable } from '../tables.ts';
import type { AttemptResult } from './attempt.ts';
import { claimer, type Load } from './claim.ts';
import type { Claimed } from './claims.repository.ts';
import { type Outcome, recordAttempt } from './record.ts';

/** An attempt's result to record: the delivery as claimed, with the claim's token. */
export interface Finished {
  delivery: WebhookDeliveriesTable;
  result: AttemptResult;
  /** When the attempt ended (ISO). */
  at: string;
}

/**
 * One round of a delivery worker, as data (it may cross the IPC channel): in one write, record the results of the
 * attempts that finished, then claim up to `take` due deliveries. `load`: the worker's attempts still in flight.
 */
export interface RoundRequest {
  now: string;
  leaseUntil: string;
  take: number;
  load: { byMode: Record<Mode, number>; orgs: [string, number][]; endpoints: [string, number][] };
  finished: Finished[];
}

export interface RoundAnswer {
  claimed: Claimed[];
  /** A round right away may find more. */
  more: boolean;
  /** Each finished attempt's outcome, in order (none when the write failed: it throws instead). */
  outcomes: Outcome[];
}

export type Rounds = (request: RoundRequest) => Promise<RoundAnswer>;

export function loadSnapshot(load: Load): RoundRequest['load'] {
  return { byMode: { ...load.byMode }, orgs: [...load.orgs], endpoints: [...load.endpoints] };
}

/**
 * Rounds run on `database`, for one worker (a claimer of its own: its cursor and the order in which it served
 * organisations). `shared`: other processes claim too, so each claim decides again inside its write (claim.ts).
 */
export function databaseRounds(database: Database, concurrency: number, shared: boolean, schedule: number[]): Rounds {
  const claims = claimer(database, concurrency, shared);
  return async (request) => {
    claims.load.byMode = { ...request.load.byMode };
    claims.load.orgs = new Map(request.load.orgs);
    claims.load.endpoints = new Map(request.load.endpoints);
    const outcomes: Outcome[] = [];
    const record =
      request.finished.length === 0
        ? undefined
        : async (trx: Trx) => {
            const cleared = new Set<string>();
            for (const { delivery, result, at } of request.finished)
              outcomes.push(
                await recordAttempt(trx, delivery, delivery.claim!, result, new Date(at), schedule, cleared),
              );
          };
    const { claimed, more } = await claims.claim(
      new Date(request.now),
      () => request.take,
      new Date(request.leaseUntil),
      record,
    );
    return { claimed, more, outcomes };
  };
}
