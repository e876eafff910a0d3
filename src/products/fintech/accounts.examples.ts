/** The accounts API's examples in the OpenAPI document: realistic values, consistent with each other. */

/** An account as created: nothing in it yet (docs/api.md#fintech-accounts: the balance is 0 on creation). */
export const EXAMPLE_NEW_ACCOUNT = {
  id: 'acct_D20BX2JY00TY1SK00H0Y2JPAH1',
  object: 'fintech.account',
  type: 'business',
  country: 'US',
  status: 'active',
  status_details: null,
  closed_at: null,
  available_balance: { amount: 0, currency: 'USD' },
  current_balance: { amount: 0, currency: 'USD' },
  kyb: { legal_name: 'Acme Corp', ein_last4: '6789' },
  nickname: null,
  metadata: {},
  livemode: false,
  created_at: '2026-11-21T12:06Z',
};

/** The same account later, with money in it, part of it held by a pending transfer. */
export const EXAMPLE_ACCOUNT = {
  ...EXAMPLE_NEW_ACCOUNT,
  available_balance: { amount: 240000, currency: 'USD' },
  current_balance: { amount: 250000, currency: 'USD' },
  nickname: 'Payroll',
  metadata: { customer_id: 'cus_4521' },
};
