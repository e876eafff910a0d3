import { apiTime } from '../../platform/kit/time.ts';
import type { Account } from './accounts.schema.ts';
import type { AccountsTable } from './tables.ts';

/** The API view of an account row: only the EIN's last four digits, times in the API's form. */
export function accountFromRow(row: AccountsTable): Account {
  return {
    id: row.id,
    object: 'fintech.account',
    type: row.type,
    country: row.country,
    status: row.status,
    available_balance: { amount: Number(row.available_balance), currency: row.currency },
    kyb:
      row.kyb_ein_last4 === null || row.kyb_legal_name === null
        ? null
        : { legal_name: row.kyb_legal_name, ein_last4: row.kyb_ein_last4 },
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
