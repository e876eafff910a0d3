import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { listsInCommitOrder } from '../../db/commit-order.ts';
import type { Trx } from '../../db/database.ts';
import { preparedSend } from '../../db/prepared.ts';
import type { Tables } from '../../db/tables.ts';
import type { Mode } from '../../platform/auth/principal.ts';
import type { MetadataUpdate } from './metadata.schema.ts';

export type Metadata = Record<string, string>;

/** The tables whose objects carry indexed metadata (a list can be filtered by it). */
export type MetadataKind = 'accounts' | 'transfers';

/** Metadata as given at creation, as stored: a key given `""` is not set. */
export function metadataOnCreate(given: Metadata | undefined): Metadata {
  return Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== ''));
}

/**
 * Applies an update (docs/api.md#metadata-your-own-references): keys given are set, a key given `""` is removed, `""`
 * clears everything.
 */
export function mergeMetadata(current: Metadata, update: MetadataUpdate): Metadata {
  if (update === '') return {};
  const merged: Metadata = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

// Most objects have none: `{}` is answered without the parser (a fresh object either way).
export const parseMetadata = (stored: string): Metadata => (stored === '{}' ? {} : (JSON.parse(stored) as Metadata));

type Index = { kind: string; id: string; metadata: string };
const INDEX = { kind: true, id: true, metadata: true } as const;

// One row per key and object, with the object's owner and list position (`tx`), so that a filter is answered from
// the index (owner, kind, key, value, position) without reading the owner's other objects.
const insertEntries = (table: MetadataKind) =>
  preparedSend<Index>(INDEX, (db, p) => ({
    compile: () => {
      const pairs = listsInCommitOrder(db) ? sql`jsonb_each_text(${p.metadata}::jsonb)` : sql`json_each(${p.metadata})`;
      return sql`insert into metadata_entries (org_id, mode, kind, object_id, key, value, object_tx)
        select o.org_id, o.mode, ${p.kind}, o.id, j.key, j.value, o.tx
        from ${sql.table(table)} as o, ${pairs} as j where o.id = ${p.id}`.compile(db);
    },
  }));
const INSERTS = { accounts: insertEntries('accounts'), transfers: insertEntries('transfers') };
const deleteEntries = preparedSend<{ id: string }>({ id: true }, (db, p) =>
  db.deleteFrom('metadata_entries').where('object_id', '=', p.id),
);

/**
 * Indexes an object's metadata, in the write that created or changed it (the object's row is written before, in the
 * same transaction): its previous entries go, the current ones come.
 */
export function indexMetadata(trx: Trx, kind: MetadataKind, id: string, metadata: Metadata, replace: boolean): void {
  if (replace) deleteEntries(trx, { id });
  if (Object.keys(metadata).length > 0) INSERTS[kind](trx, { kind, id, metadata: JSON.stringify(metadata) });
}

// biome-ignore lint/suspicious/noExplicitAny: a list's query, whatever its table
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * Narrows a list of the owner's objects of `kind` to those whose metadata holds every pair of `filter`: each pair is
 * a look-up in the metadata index, never a scan of the owner's objects.
 */
export function whereMetadata<Q extends AnySelect>(
  query: Q,
  owner: { orgId: string; mode: Mode },
  kind: MetadataKind,
  filter: Metadata | undefined,
): Q {
  let narrowed = query;
  for (const [key, value] of Object.entries(filter ?? {})) {
    narrowed = narrowed.where(`${kind}.id`, 'in', (eb: ExpressionBuilder<Tables, 'metadata_entries'>) =>
      eb
        .selectFrom('metadata_entries')
        .select('object_id')
        .where('org_id', '=', owner.orgId)
        .where('mode', '=', owner.mode)
        .where('kind', '=', kind)
        .where('key', '=', key)
        .where('value', '=', value),
    ) as Q;
  }
  return narrowed;
}
