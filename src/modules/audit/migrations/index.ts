import type { Migration } from 'kysely';
import * as m20261128T0905 from './2026-11-28T0905_audit_keys.ts';

export const AUDIT_MIGRATIONS: Record<string, Migration> = {
  '2026-11-28T0905_audit_keys': m20261128T0905,
};
