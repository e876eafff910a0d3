import { defineProduct } from '../../platform/module.ts';
import { accountsRoutes } from './accounts.routes.ts';
import { FINTECH_MIGRATIONS } from './migrations/index.ts';
import { FintechSettings } from './settings.ts';

/** Fintech: accounts that hold a balance in the currency of their country. */
export const fintech = defineProduct({
  name: 'fintech',
  tags: [{ name: 'Fintech accounts', description: 'Accounts hold a balance in the currency of their country.' }],
  migrations: FINTECH_MIGRATIONS,
  settings: FintechSettings,
  routes(app, { database, clock, settings, withIdempotency }) {
    accountsRoutes(app, { db: database.db, clock, supportedCountries: settings.SUPPORTED_COUNTRIES, withIdempotency });
  },
});
