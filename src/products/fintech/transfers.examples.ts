/** The transfers API's examples in the OpenAPI document: one posted, one pending on the same accounts. */

export const EXAMPLE_TRANSFER = {
  id: 'tr_01M7Z2C4H2XK8P3Q9VJ6T5N0AB',
  object: 'fintech.transfer',
  from_account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
  to_account_id: 'acct_01M7Z2620T4Y3W5QH0Q8MZB2KD',
  amount: 2500,
  currency: 'USD',
  description: 'Invoice 2026-114',
  status: 'posted',
  pending: false,
  posted_amount: 2500,
  expires_at: null,
  resolved_at: null,
  amount_reversed: 0,
  reversed: false,
  metadata: {},
  livemode: false,
  created_at: '2026-11-22T10:15Z',
};

export const EXAMPLE_PENDING = {
  ...EXAMPLE_TRANSFER,
  id: 'tr_01M7Z2D9Q4RX6W1B3K8F2M7C5E',
  amount: 10000,
  description: 'Card authorisation 8841',
  status: 'pending',
  pending: true,
  posted_amount: null,
  expires_at: '2026-11-23T10:15Z',
  metadata: { authorisation: '8841' },
};
