import type { Mode } from '../keys/principal.ts';

/** The counter each org and mode draws its event sequence from, inside the write that emits the event. */
export interface EventSequencesTable {
  org_id: string;
  mode: Mode;
  /** bigint; PostgreSQL returns it as text. */
  last_sequence: number | string;
}

/** The outbox: one row per event, written in the same transaction as the change it reports. Never updated. */
export interface EventsTable {
  id: string;
  org_id: string;
  mode: Mode;
  type: string;
  sequence: number | string;
  /** The event's JSON exactly as delivered: its bytes are fixed when the event is created. */
  body: string;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    event_sequences: EventSequencesTable;
    events: EventsTable;
  }
}
