import type { Trx } from '../../db/database.ts';
import type { Mode } from '../auth/principal.ts';

/** The API request that caused a write (recorded on its events); null for the operator CLI and background work. */
export interface EventRequest {
  id: string;
  idempotency_key: string | null;
}

/** Whose objects a write touches: an API principal fits, and so does an operator's or a background job's. */
export interface Owner {
  orgId: string;
  mode: Mode;
}

/**
 * Everything a write's service needs about the write itself, in one value: the transaction it runs in, whom it acts
 * for, the request that caused it, and its time (read once, at the start of the write, so that every row and event
 * of one write carries the same instant). Made by the idempotency step for the API and the dashboard, and by the
 * background job or the CLI command that writes.
 *
 *   createTransfer(deps, ctx, body)
 */
export interface WriteContext<O extends Owner = Owner> {
  readonly trx: Trx;
  readonly owner: O;
  readonly request: EventRequest | null;
  readonly now: Date;
}
