import { hash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Permission } from '../auth/permissions.ts';
import type { Mode } from '../auth/principal.ts';
import type { Owner } from '../operations/context.ts';

/**
 * The events' hash chain (docs/api.md#verifying-the-history). Each event's body names the hash of the previous body
 * of its org and mode (`chain.prev`); the first names the genesis hash below. An event's hash is the SHA-256 of its
 * body's bytes exactly as served, so any copy a customer keeps (a webhook body, a stream line) can be checked.
 */

export interface ChainTable {
  org_id: string;
  mode: Mode;
  /** bigint; PostgreSQL returns it as text. */
  sequence: number | string;
  event_id: string;
  /** Lower-case hex SHA-256 of the event's body. */
  hash: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    event_chain: ChainTable;
  }
}

/** What the first event of an org and mode names as its previous hash. */
export function genesisHash(orgId: string, mode: Mode): string {
  return hashOf(`plinth.chain.v1 ${orgId} ${mode}`);
}

/** Lower-case hex SHA-256 of a body's UTF-8 bytes. */
export function hashOf(body: string): string {
  return hash('sha256', body, 'hex');
}

/**
 * A module's check that its rows agree with the events that reported them (`cli audit verify`): the chain proves the
 * bodies unchanged, this proves the rows unchanged since. Fintech checks each ledger transaction against its
 * `fintech.transaction.created` body.
 */
export interface EventCheck {
  /** The event type whose bodies it checks. */
  type: string;
  /** The table its rows are in, named in a failure. */
  table: string;
  /** What reading its rows takes through the API: a reader without it (a restricted key) is not shown their values. */
  reads: Permission;
  /**
   * For each body of `type` (its `data.object`), why its row disagrees with it or is missing; empty when all agree.
   * `showRows`: whether the reader may see what the rows hold now (`reads`); when not, a reason names the fields that
   * differ and the event's values (the reader may read events), never the row's.
   */
  check(
    db: Db,
    owner: Owner,
    bodies: { sequence: number; object: { id: string } & Record<string, unknown> }[],
    showRows: boolean,
  ): Promise<{ sequence: number; why: string }[]>;
  /** Ids of rows made at or after `since` (the oldest kept body's time) that no body of `type` reported. */
  unreported(db: Db, owner: Owner, since: string, seen: ReadonlySet<string>): Promise<string[]>;
}
