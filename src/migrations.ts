import type { Migration } from 'kysely';
import { DASHBOARD_MIGRATIONS } from './dashboard/migrations/index.ts';
import { PLATFORM_MIGRATIONS } from './platform/migrations/index.ts';
import type { SealedColumn } from './platform/secrets/rotate.ts';
import { WEBHOOK_SECRET_COLUMN } from './platform/webhooks/signing-secrets.ts';
import { PRODUCTS } from './products.ts';

/** Every module's migrations: what the server applies at start-up and `cli migrate` applies on demand. */
export const ALL_MIGRATIONS: Record<string, Migration>[] = [
  PLATFORM_MIGRATIONS,
  DASHBOARD_MIGRATIONS,
  ...PRODUCTS.map((p) => p.migrations),
];

/** Every column of every module that holds sealed values: what `cli secrets rotate` re-seals, what start-up probes. */
export const SEALED_COLUMNS: SealedColumn[] = [
  ...PRODUCTS.flatMap((p) => p.sealedColumns ?? []),
  WEBHOOK_SECRET_COLUMN,
];
