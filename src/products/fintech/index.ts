import { Gauge } from 'prom-client';
import { defineModule } from '../../platform/module.ts';
import { accountNumberOps } from './account-numbers.routes.ts';
import { ACCOUNT_NUMBER_SHAPE, SEALED_ACCOUNT_NUMBER } from './account-numbers.service.ts';
import { accountOps, accountsRoutes } from './accounts.routes.ts';
import { SEALED_EIN } from './accounts.service.ts';
import { transactionsAgreeWithEvents } from './audit.ts';
import { balanceOps } from './balances.routes.ts';
import { EIN_SHAPE } from './ein.ts';
import { FINTECH_ERRORS } from './errors.ts';
import { FINTECH_EVENT_TYPES } from './events.ts';
import { externalAccountOps } from './external-accounts.routes.ts';
import { SEALED_EXTERNAL_NUMBER } from './external-accounts.service.ts';
import { countLedgerViolations } from './ledger/verify.ts';
import { lifecycleOps, lifecycleRoutes } from './lifecycle.routes.ts';
import { FINTECH_MIGRATIONS } from './migrations/index.ts';
import { expiriesDueSource, paymentsDueSource } from './payments.due.ts';
import { paymentOps, paymentsRoutes } from './payments.routes.ts';
import { SEALED_RULE_NUMBER } from './payments.rules.ts';
import { paymentSimulationOps } from './payments.sandbox.routes.ts';
import { reversalOps } from './reversals.routes.ts';
import { FintechSettings } from './settings.ts';
import { simulationOps, transactionOps, transactionsRoutes } from './transactions.routes.ts';
import { sweepExpired } from './transfers.expiry.ts';
import { transferOps, transfersRoutes } from './transfers.routes.ts';

/** Fintech: accounts that hold money in the currency of their country, moved through a double-entry ledger. */
export const fintech = defineModule({
  name: 'fintech',
  tags: [
    { name: 'Fintech accounts', description: 'Accounts hold a balance in the currency of their country.' },
    { name: 'Fintech transfers', description: 'Money moved between two accounts, synchronously.' },
    {
      name: 'Fintech account numbers',
      description: 'Bank account numbers of accounts: money sent to one over ACH, wire or RTP reaches its account.',
    },
    {
      name: 'Fintech payments',
      description: 'Money sent to bank accounts outside Plinth over ACH, wire or RTP, and money received.',
    },
    {
      name: 'Fintech payment simulations',
      description: 'Sandbox: payments received, outcomes on demand, and rules that return or reject payments.',
    },
    {
      name: 'Fintech transactions',
      description: "Every change to an account's balance, immutable; and the sandbox simulations that make them.",
    },
  ],
  migrations: FINTECH_MIGRATIONS,
  settings: FintechSettings,
  errors: FINTECH_ERRORS,
  eventTypes: FINTECH_EVENT_TYPES,
  eventChecks: [transactionsAgreeWithEvents],
  secretShapes: [EIN_SHAPE, ACCOUNT_NUMBER_SHAPE],
  sealedColumns: [SEALED_EIN, SEALED_ACCOUNT_NUMBER, SEALED_EXTERNAL_NUMBER, SEALED_RULE_NUMBER],
  install(app, { database, clock, now, events, settings, withIdempotency, secrets }) {
    const supportedCountries = settings.SUPPORTED_COUNTRIES;
    const deps = { db: database.db, clock, now, events, supportedCountries, withIdempotency, secrets };
    accountsRoutes(app, deps);
    lifecycleRoutes(app, deps);
    transfersRoutes(app, deps);
    transactionsRoutes(app, { ...deps, write: database.write });
    paymentsRoutes(app, { ...deps, routingNumber: settings.BANK_ROUTING_NUMBER });
  },
  due: ({ database, clock, now, events, secrets, settings }) => {
    const deps = { db: database.db, clock, now, events, secrets, routingNumber: settings.BANK_ROUTING_NUMBER };
    return [paymentsDueSource(deps), expiriesDueSource(deps)];
  },
  jobs: ({ database, clock, now, events, settings }) => [
    {
      what: 'transfer expiry sweep',
      everyMs: settings.TRANSFER_EXPIRY_SWEEP_SECONDS * 1000,
      pass: () => sweepExpired({ db: database.db, clock, now, events, write: database.write }),
    },
  ],
  metrics(registry, { database }) {
    // A full check of the ledger is a scan of every entry: at most once a minute, whatever the scrape interval.
    let last = { at: 0, value: 0 };
    new Gauge({
      name: 'plinth_ledger_invariant_violations',
      help: 'Ledger invariants broken now (see `cli ledger verify`); 0 when sound. Checked once a minute at most.',
      registers: [registry],
      async collect() {
        if (Date.now() - last.at >= 60_000) last = { at: Date.now(), value: await countLedgerViolations(database.db) };
        this.set(last.value);
      },
    });
  },
});

/** Fintech's operations, declared: what the dashboard and the CLI name (`ops.retrieveTransfer`, src/ops.ts). */
export const fintechOps = {
  ...accountOps,
  ...lifecycleOps,
  ...balanceOps,
  ...transactionOps,
  ...simulationOps,
  ...transferOps,
  ...reversalOps,
  ...accountNumberOps,
  ...externalAccountOps,
  ...paymentOps,
  ...paymentSimulationOps,
};

export { AccountNumberIdParams } from './account-numbers.schema.ts';
// The public face the dashboard reads: the API's shapes of accounts, transfers and transactions, and its facts.
export { type Account, AccountIdParams, type AccountList, AccountListQuery } from './accounts.schema.ts';
export { currencyOf } from './countries.ts';
export { type ExternalAccount, ExternalAccountIdParams, ExternalAccountListQuery } from './external-accounts.schema.ts';
export { systemPurposeOf } from './ledger/system-account.ts';
export { CLOSE_REASONS, FREEZE_REASONS } from './lifecycle.schema.ts';
export { nextBusinessMorning } from './payments.calendar.ts';
export { RETURN_CODES, RETURN_REASONS } from './payments.returns.ts';
export { PAYMENT_STATUSES, type Payment, PaymentIdParams, PaymentListQuery } from './payments.schema.ts';
export { reversibleAmount } from './reversals.service.ts';
export { FintechSettings } from './settings.ts';
export { type Transaction, TransactionListQuery } from './transactions.schema.ts';
export { type Transfer, TransferIdParams, TransferListQuery } from './transfers.schema.ts';
