import { parseMetadata } from '../../modules/metadata/index.ts';
import { apiTime } from '../../platform/kit/time.ts';
import type { AccountRow } from './accounts.repository.ts';
import type { Account } from './accounts.schema.ts';
import { toAmount } from './ledger/amount.ts';
import type { AccountsTable, Int64 } from './tables.ts';

/** The API view of an account row: only the EIN's last four digits, times in the API's form. */
export function accountFromRow(row: AccountRow): Account {
  return accountOf(row, row.balance, row.held);
}

/** The same, of an account's row and its ledger account's balance and held amount (a new account's: 0 and 0). */
export function accountOf(row: AccountsTable, balance: Int64, held: Int64): Account {
  const current = toAmount(balance);
  return {
    id: row.id,
    object: 'fintech.account',
    type: row.type,
    country: row.country,
    status: row.status,
    status_details:
      row.status === 'active'
        ? null
        : { reason: row.status_reason ?? 'other', note: row.status_note, actor: row.status_actor ?? 'api' },
    closed_at: row.closed_at === null ? null : apiTime(row.closed_at),
    available_balance: { amount: current - toAmount(held), currency: row.currency },
    current_balance: { amount: current, currency: row.currency },
    kyb:
      row.kyb_ein_last4 === null || row.kyb_legal_name === null
        ? null
        : { legal_name: row.kyb_legal_name, ein_last4: row.kyb_ein_last4 },
    nickname: row.nickname,
    metadata: parseMetadata(row.metadata),
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
