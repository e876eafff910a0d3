import type { ErrorTable } from '../../platform/http/error-codes.ts';

/**
 * Fintech's error codes (docs/api.md#errors), registered with the product (`errors` in index.ts): the registry puts
 * them in the one closed list, each after the platform's codes of its status (see platform/http/error-codes.ts).
 */
export const FINTECH_ERRORS = {
  country_unsupported: {
    status: 400,
    title: 'Country not supported',
    description: 'A real ISO 3166-1 country that this deployment does not serve.',
  },
  account_frozen: {
    status: 409,
    title: 'Account frozen',
    description: 'A frozen account takes no debit and no credit. `param` names the frozen side.',
  },
  account_closed: {
    status: 409,
    title: 'Account closed',
    description: 'A closed account cannot change or move money; it stays readable. `param` names the closed side.',
  },
  account_balance_nonzero: {
    status: 409,
    title: 'Account balance not zero',
    description: 'Only an account whose balances are both 0 can be closed. The detail says what it holds.',
  },
  insufficient_funds: {
    status: 409,
    title: 'Insufficient funds',
    description: 'The account to debit has less available than the amount. The detail says what is available.',
  },
  currency_mismatch: {
    status: 409,
    title: 'Currency mismatch',
    description: "The amount's currency is not the account's. `param` names the account that differs.",
  },
  transfer_not_pending: {
    status: 409,
    title: 'Transfer not pending',
    description: 'Only a pending transfer can be posted or voided; the detail says its status.',
  },
  transfer_expired: {
    status: 409,
    title: 'Transfer expired',
    description: 'The pending transfer passed its `expires_at`: its hold is released, and it can no longer move.',
  },
  transfer_not_reversible: {
    status: 409,
    title: 'Transfer not reversible',
    description:
      'Only a posted transfer with something left to reverse can be reversed; the detail says its status, or that ' +
      'it is fully reversed.',
  },
  payment_state_invalid: {
    status: 409,
    title: 'Payment state invalid',
    description:
      'The payment cannot make this change in its status (a cancel once submitted, a return of a wire); the detail ' +
      'says its status. Also: a transfer that moves with a payment is moved only by the payment.',
  },
  live_rails_not_configured: {
    status: 409,
    title: 'Live rails not configured',
    description:
      'Live account numbers need the deployment’s bank routing number (`BANK_ROUTING_NUMBER`), which is not set.',
  },
  rail_unavailable: {
    status: 409,
    title: 'Rail unavailable',
    description:
      'Live wire and RTP payments need a bank connection, which this deployment does not have; ACH goes by bank file.',
  },
} as const satisfies ErrorTable;
