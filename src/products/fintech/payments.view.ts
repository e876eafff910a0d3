import { parseMetadata } from '../../modules/metadata/index.ts';
import { apiTime } from '../../platform/kit/time.ts';
import type { AccountNumber } from './account-numbers.schema.ts';
import type { ExternalAccount } from './external-accounts.schema.ts';
import { toAmount } from './ledger/amount.ts';
import { returnReasonOf } from './payments.returns.ts';
import type { PaymentRule } from './payments.sandbox.schema.ts';
import type { Payment } from './payments.schema.ts';
import type { AccountNumbersTable, ExternalAccountsTable, PaymentRulesTable, PaymentsTable } from './tables.ts';

const time = (stored: string | null) => (stored === null ? null : apiTime(stored));

export function paymentFromRow(row: PaymentsTable): Payment {
  return {
    id: row.id,
    object: 'fintech.payment',
    direction: row.direction,
    rail: row.rail,
    account_id: row.account_id,
    external_account_id: row.external_account_id,
    account_number_id: row.account_number_id,
    amount: toAmount(row.amount),
    currency: row.currency,
    status: row.status,
    return_reason: row.return_code === null ? null : returnReasonOf(row.return_code),
    transfer_id: row.transfer_id,
    originator_name: row.originator_name,
    submitted_at: time(row.submitted_at),
    settled_at: time(row.settled_at),
    returned_at: time(row.returned_at),
    description: row.description,
    metadata: parseMetadata(row.metadata),
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}

/** `plain`: the number itself, in the answer to its creation only; every other answer shows `null`. */
export function accountNumberFromRow(row: AccountNumbersTable, plain: string | null = null): AccountNumber {
  return {
    id: row.id,
    object: 'fintech.account_number',
    account_id: row.account_id,
    routing_number: row.routing_number,
    account_number: plain,
    account_number_last4: row.last4,
    name: row.name,
    status: row.status,
    inbound_debits: row.inbound_debits,
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}

export function externalAccountFromRow(row: ExternalAccountsTable): ExternalAccount {
  return {
    id: row.id,
    object: 'fintech.external_account',
    routing_number: row.routing_number,
    account_number_last4: row.account_number_last4,
    account_holder_name: row.account_holder_name,
    account_type: row.account_type,
    status: row.status,
    metadata: parseMetadata(row.metadata),
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}

export function paymentRuleFromRow(row: PaymentRulesTable): PaymentRule {
  return {
    id: row.id,
    object: 'sandbox.payment_rule',
    match: {
      amount: row.match_amount === null ? null : toAmount(row.match_amount),
      rail: row.match_rail,
      external_account_number_last4: row.match_last4,
    },
    action: { return: row.return_code, at: row.return_at, reject: row.reject === 1 },
    created_at: apiTime(row.created_at),
  };
}
