import type { Migration } from 'kysely';
import * as m20261125T1200 from './2026-11-25T1200_dashboard_sessions.ts';

/**
 * The dashboard's migrations, applied in name order with every other module's (src/modules.ts). A new one is named
 * after every migration already on main: a database that applied a later name would refuse an earlier newcomer.
 */
export const DASHBOARD_MIGRATIONS: Record<string, Migration> = {
  '2026-11-25T1200_dashboard_sessions': m20261125T1200,
};
