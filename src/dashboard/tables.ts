import type { Mode } from '../platform/auth/principal.ts';

/**
 * One signed-in dashboard session. The session id itself lives only in the browser's cookie: the row holds its
 * SHA-256, so a copy of the database cannot be turned into a session. The API key that signed in is not here
 * either, only its id, which each request re-checks (revoked → the session ends).
 */
export interface DashboardSessionsTable {
  /** SHA-256 of the session id, hex. */
  id_hash: string;
  key_id: string;
  org_id: string;
  mode: Mode;
  created_at: string;
  expires_at: string;
}

declare module '../db/tables.ts' {
  interface Tables {
    dashboard_sessions: DashboardSessionsTable;
  }
}
