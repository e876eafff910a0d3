/**
 * Metadata, the integrator's own references on objects (docs/api.md#metadata-your-own-references): its public face.
 * The modules that carry metadata (fintech's accounts and transfers, the webhook endpoints) import it from here only.
 * Its table (metadata_entries) is created by the core's migration 2026-11-25T0050_metadata, which also gave the
 * webhook endpoints their column; released migrations stay where they are.
 */
export {
  METADATA_KEY_MAX,
  METADATA_KEYS_MAX,
  METADATA_VALUE_MAX,
  Metadata,
  MetadataFilter,
  MetadataInput,
  MetadataUpdate,
} from './metadata.schema.ts';
export {
  indexMetadata,
  type MetadataKind,
  mergeMetadata,
  metadataOnCreate,
  parseMetadata,
  whereMetadata,
} from './metadata.ts';
export type { MetadataEntriesTable } from './tables.ts';
