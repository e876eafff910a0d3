import type { Mode } from '../../platform/auth/principal.ts';

/** The metadata index: one row per key of an object's metadata (the object's own column holds the whole of it). */
export interface MetadataEntriesTable {
  org_id: string;
  mode: Mode;
  /** The table of the object: `accounts`, `transfers`. */
  kind: string;
  object_id: string;
  key: string;
  value: string;
  /** The object's list position (its `tx`, see db/commit-order.ts), so that a filtered list walks the index in order. */
  object_tx: number | string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    metadata_entries: MetadataEntriesTable;
  }
}
