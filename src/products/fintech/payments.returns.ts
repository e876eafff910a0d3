/**
 * The ACH return reasons the sandbox knows (docs/api.md#ach-return-reasons), after the Nacha Operating Rules' codes.
 * A return names one; an unknown code is refused (400). The notification-of-change codes a payment may receive are
 * below them.
 */
export const RETURN_REASONS = {
  R01: 'Insufficient funds',
  R02: 'Account closed',
  R03: 'No account, or unable to locate account',
  R04: 'Invalid account number structure',
  R07: 'Authorization revoked by customer',
  R08: 'Payment stopped',
  R10: 'Customer advises originator is not known to receiver or is not authorized',
  R16: 'Account frozen',
  R20: 'Non-transaction account',
  R29: 'Corporate customer advises not authorized',
} as const;

export type ReturnCode = keyof typeof RETURN_REASONS;
export const RETURN_CODES = Object.keys(RETURN_REASONS) as ReturnCode[];

export const returnReasonOf = (code: string) => ({
  code,
  description: RETURN_REASONS[code as ReturnCode] ?? 'Returned',
});

/** Notifications of change: what was wrong in the external account, and what `corrected_data` carries. */
export const CHANGE_CODES = {
  C01: 'Incorrect account number: `corrected_data` is the account number',
  C02: 'Incorrect routing number: `corrected_data` is the routing number',
  C03: 'Incorrect routing and account number: `corrected_data` is the routing number, a space, the account number',
} as const;
export type ChangeCode = keyof typeof CHANGE_CODES;
