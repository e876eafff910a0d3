import type { Migration } from 'kysely';
import { PLATFORM_MIGRATIONS } from './platform/migrations/index.ts';
import { PRODUCTS } from './products.ts';

/** Every module's migrations: what the server applies at start-up and `cli migrate` applies on demand. */
export const ALL_MIGRATIONS: Record<string, Migration>[] = [PLATFORM_MIGRATIONS, ...PRODUCTS.map((p) => p.migrations)];
