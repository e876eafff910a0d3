import { Type } from 'typebox';
import { flag, integer } from '../platform/kit/settings.ts';

/** The dashboard's environment variables; they join the one Config (src/config.ts) and the README's table. */
export const DashboardSettings = Type.Object({
  DASHBOARD: flag(true, '`on` or `off`: the web console at `/dashboard` (off: every `/dashboard` path is a 404)'),
  DASHBOARD_SESSION_HOURS: integer(12, 1, 12, 'hours a dashboard sign-in lasts before it must be repeated (1–12)'),
});
