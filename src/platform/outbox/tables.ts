import type { Mode } from '../auth/principal.ts';

/** The counter each org and mode draws its event sequence from, inside the write that emits the event. */
export interface EventSequencesTable {
  org_id: string;
  mode: Mode;
  /** bigint; PostgreSQL returns it as text. */
  last_sequence: number | string;
}

/**
 * The outbox: one row per event, written in the same transaction as the change it reports. On SQLite numbered when
 * written; on PostgreSQL written without a number and numbered once by the sequencer (the one update an event ever
 * has), then never changed.
 */
export interface EventsTable {
  id: string;
  org_id: string;
  mode: Mode;
  type: string;
  /** +1 per event of the org and mode; null until numbered (PostgreSQL). */
  sequence: number | string | null;
  /** The event's JSON exactly as delivered: its bytes are fixed when it is numbered. */
  body: string;
  created_at: string;
}

/**
 * PostgreSQL: the order unnumbered events are numbered in. `position` is drawn from a sequence as the write's last
 * statement before COMMIT, one per write; `position_index` orders the events of one write. Null on SQLite.
 */
export interface EventPositionColumns {
  position: number | string | null;
  position_index: number | null;
}

/**
 * The id of the API request (or dashboard action) that caused the event, the body's `request.id` kept where it can be
 * looked up: the dashboard lists a request's events by it. Null for events of the operator CLI and background work.
 */
export interface EventRequestColumn {
  request_id: string | null;
}

declare module '../../db/tables.ts' {
  interface Tables {
    event_sequences: EventSequencesTable;
    events: EventsTable & EventPositionColumns & EventRequestColumn;
  }
}
