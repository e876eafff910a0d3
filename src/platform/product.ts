import type { FastifyInstance } from 'fastify';
import type { Migration } from 'kysely';
import type { Registry } from 'prom-client';
import type { Static, TObject } from 'typebox';
import type { Database } from '../db/database.ts';
import type { EventRecorder } from './events/emit.ts';
import type { ErrorTable } from './http/error-codes.ts';
import type { WithIdempotency } from './idempotency/idempotency.ts';
import type { SecretShape } from './kit/redact.ts';
import type { Clock } from './kit/time.ts';
import type { SecretBox } from './secrets/box.ts';
import type { SealedColumn } from './secrets/rotate.ts';

/** What the platform hands every product: built once at start-up, passed in (no module-level singletons). */
export interface ProductDeps<Settings> {
  database: Database;
  clock: Clock;
  /** Records a write's events, in its transaction (the outbox). */
  events: EventRecorder;
  /** The product's own settings, parsed from the environment with everything else at start-up. */
  settings: Settings;
  /** The step every POST handler wraps around its service call: one write, idempotent under a key. */
  withIdempotency: WithIdempotency;
  /** Seals secrets at rest (AES-256-GCM under SECRETS_KEY). */
  secrets: SecretBox;
}

/**
 * A product is one folder under src/products with an index.ts exporting one of these, and one line in
 * src/products.ts. Its tables merge into db/tables.ts's `Tables` by declaration merging from its own tables.ts.
 */
export interface Product<S extends TObject = TObject, E extends ErrorTable = Record<never, never>> {
  /** The path segment after /v1: `/v1/<name>/...`. */
  name: string;
  /** OpenAPI tags of its operations, in the order the reference shows them. */
  tags: { name: string; description: string }[];
  /** Its migrations by name; names are timestamps, applied in name order across every module. */
  migrations: Record<string, Migration>;
  /** Its environment variables (see platform/kit/settings.ts). */
  settings: S;
  /** Its error codes: the registry adds them to the one closed list, and to `ErrorCode` (src/products.ts). */
  errors?: E;
  /** What its secrets look like, redacted with the platform's in every log line and error detail. */
  secretShapes?: SecretShape[];
  /** Columns holding values sealed with ProductDeps.secrets: `cli secrets rotate` re-seals them. */
  sealedColumns?: SealedColumn[];
  routes(app: FastifyInstance, deps: ProductDeps<Static<S>>): void;
  /** Its own metrics, registered on the app's /metrics registry. */
  metrics?(registry: Registry, deps: ProductDeps<Static<S>>): void;
}

/** Checks a product's shape where it is written, keeping its settings type precise. */
export function defineProduct<S extends TObject, E extends ErrorTable = Record<never, never>>(
  product: Product<S, E>,
): Product<S, E> {
  return product;
}
