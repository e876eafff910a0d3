import type { AccountNumber } from './account-numbers.schema.ts';
import type { Account } from './accounts.schema.ts';
import type { ExternalAccount } from './external-accounts.schema.ts';
import type { Payment } from './payments.schema.ts';
import type { TransferReversal } from './reversals.schema.ts';
import type { Transaction } from './transactions.schema.ts';
import type { Transfer } from './transfers.schema.ts';

/** Fintech's event types (docs/api.md#events), in the order the reference lists them, and what each carries. */
export const FINTECH_EVENT_TYPES = [
  'fintech.account.created',
  'fintech.account.frozen',
  'fintech.account.unfrozen',
  'fintech.account.closed',
  'fintech.account.updated',
  'fintech.transfer.created',
  'fintech.transfer.posted',
  'fintech.transfer.voided',
  'fintech.transfer.expired',
  'fintech.transfer.updated',
  'fintech.transfer_reversal.created',
  'fintech.transaction.created',
  'fintech.account_number.created',
  'fintech.account_number.updated',
  'fintech.external_account.created',
  'fintech.external_account.updated',
  'fintech.payment.created',
  'fintech.payment.updated',
] as const;

declare module '../../platform/outbox/types.ts' {
  interface EventPayloads {
    'fintech.account.created': Account;
    'fintech.account.frozen': Account;
    'fintech.account.unfrozen': Account;
    'fintech.account.closed': Account;
    'fintech.account.updated': Account;
    'fintech.transfer.created': Transfer;
    'fintech.transfer.posted': Transfer;
    'fintech.transfer.voided': Transfer;
    'fintech.transfer.expired': Transfer;
    'fintech.transfer.updated': Transfer;
    'fintech.transfer_reversal.created': TransferReversal;
    'fintech.transaction.created': Transaction;
    'fintech.account_number.created': AccountNumber;
    'fintech.account_number.updated': AccountNumber;
    'fintech.external_account.created': ExternalAccount;
    'fintech.external_account.updated': ExternalAccount;
    'fintech.payment.created': Payment;
    'fintech.payment.updated': Payment;
  }
}
