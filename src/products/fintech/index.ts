import { defineProduct } from '../../platform/module.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { SEALED_EIN } from './accounts.service.ts';
import { FINTECH_MIGRATIONS } from './migrations/index.ts';
import { FintechSettings } from './settings.ts';

/** Fintech: accounts that hold a balance in the currency of their country. */
export const fintech = defineProduct({
  name: 'fintech',
  tags: [{ name: 'Fintech accounts', description: 'Accounts hold a balance in the currency of their country.' }],
  migrations: FINTECH_MIGRATIONS,
  settings: FintechSettings,
  sealedColumns: [SEALED_EIN],
  routes(app, { database, clock, settings, secrets }) {
    accountsRoutes(app, { db: database.db, clock, supportedCountries: settings.SUPPORTED_COUNTRIES, secrets });
  },
});
