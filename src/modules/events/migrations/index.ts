import type { Migration } from 'kysely';
import * as m20261128T0200e from './2026-11-28T0200_event_stream_leases.ts';

/**
 * The events module's migrations (the outbox's tables are the core's), by the names every database already recorded: they were the platform's until
 * the split by role (issue 38) and keep their names, so that no database runs them twice. Applied in name order
 * with every other module's.
 */
export const EVENTS_MIGRATIONS: Record<string, Migration> = {
  '2026-11-28T0200_event_stream_leases': m20261128T0200e,
};
