import { defineModule } from '../platform/module.ts';
import { FintechSettings } from '../products/fintech/index.ts';
import { installDashboard } from './install.ts';
import { DASHBOARD_MIGRATIONS } from './migrations/index.ts';
import { DashboardSettings } from './settings.ts';

/** The web console at /dashboard (docs/dashboard.md): the API's operations, in HTML. Installed after every other. */
export const dashboard = defineModule({
  name: 'dashboard',
  migrations: DASHBOARD_MIGRATIONS,
  settings: DashboardSettings,
  install(app, host) {
    const { database, clock, events, auth, keys, idempotent, secrets, resolve, sequencer, eventChecks } = host;
    const config = { ...host.settings, ...host.settingsOf(FintechSettings) };
    installDashboard(app, {
      config,
      database,
      clock,
      events,
      auth,
      keys,
      idempotent,
      secrets,
      resolve,
      caughtUp: sequencer.caughtUp,
      eventChecks,
    });
  },
});
