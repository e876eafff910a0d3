import { type Kysely, sql } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import { perLimit, prepared, preparedSend, preparedWrite } from '../../db/prepared.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { Tables } from '../../db/tables.ts';
import type { Mode } from '../../platform/auth/principal.ts';
import type { Owner } from '../../platform/operations/context.ts';
import type { AccountNumbersTable, PaymentsTable } from './tables.ts';

export const insertPayment = preparedInsert('payments', {
  id: true,
  org_id: true,
  mode: true,
  direction: true,
  rail: true,
  account_id: true,
  external_account_id: true,
  account_number_id: true,
  amount: true,
  currency: true,
  status: true,
  return_code: true,
  transfer_id: true,
  originator_name: true,
  description: true,
  metadata: true,
  submitted_at: true,
  settled_at: true,
  returned_at: true,
  created_at: true,
  due_at: true,
  due_action: true,
  due_return_code: true,
  ach_file_id: true,
  trace_number: true,
});

/** What a step changes in a payment: its status, its times, its return, and what is due next. */
export type PaymentChange = Pick<
  PaymentsTable,
  | 'id'
  | 'status'
  | 'return_code'
  | 'transfer_id'
  | 'submitted_at'
  | 'settled_at'
  | 'returned_at'
  | 'due_at'
  | 'due_action'
  | 'due_return_code'
  | 'ach_file_id'
  | 'trace_number'
>;
export const updatePayment = preparedSend<PaymentChange>(
  {
    id: true,
    status: true,
    return_code: true,
    transfer_id: true,
    submitted_at: true,
    settled_at: true,
    returned_at: true,
    due_at: true,
    due_action: true,
    due_return_code: true,
    ach_file_id: true,
    trace_number: true,
  },
  (db, { id, ...changes }) => db.updateTable('payments').set(changes).where('id', '=', id),
);

type Owned = { id: string; org_id: string; mode: Mode };
const OWNED = { id: true, org_id: true, mode: true } as const;
const ownedPayment = (db: Kysely<Tables>, p: Owned) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', p.id)
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode);

/** The owner's payment, its row locked (PostgreSQL): every change of a payment takes this lock first. */
const lockRow = preparedWrite<Owned, PaymentsTable>(OWNED, (db, p) => ownedPayment(db, p).forNoKeyUpdate());
export async function lockPaymentRow(trx: Trx, owner: Owner, id: string): Promise<PaymentsTable | undefined> {
  return (await lockRow(trx, { id, org_id: owner.orgId, mode: owner.mode })).rows[0];
}

/** The org's sandbox payments with a step due at or before `upTo`, earliest first (the clock's due source). */
// The limit written into the SQL: a bound LIMIT makes SQLite re-prepare the statement at every run (perLimit).
const dueRows = perLimit((limit) =>
  prepared<{ org_id: string; up_to: string }, PaymentsTable>({ org_id: true, up_to: true }, (db, p) =>
    db
      .selectFrom('payments')
      .selectAll()
      .where('org_id', '=', p.org_id)
      .where('mode', '=', 'sandbox')
      .where('due_at', 'is not', null)
      .where('due_at', '<=', p.up_to)
      .orderBy('due_at')
      .orderBy('id')
      .limit(sql.lit(limit)),
  ),
);
export async function paymentsDue(db: Db | Trx, orgId: string, upTo: string, limit: number): Promise<PaymentsTable[]> {
  return (await dueRows(limit)(db, { org_id: orgId, up_to: upTo })).rows;
}

export const insertAccountNumber = preparedInsert('account_numbers', {
  id: true,
  org_id: true,
  mode: true,
  account_id: true,
  routing_number: true,
  account_number: true,
  last4: true,
  name: true,
  status: true,
  inbound_debits: true,
  created_at: true,
});

/** Every number (of any org) with this routing number and last four digits: what a number's search opens. */
const byLast4 = prepared<{ routing_number: string; last4: string }, AccountNumbersTable>(
  { routing_number: true, last4: true },
  (db, p) =>
    db
      .selectFrom('account_numbers')
      .selectAll()
      .where('routing_number', '=', p.routing_number)
      .where('last4', '=', p.last4),
);
export async function numbersEndingIn(db: Db | Trx, routing: string, last4: string): Promise<AccountNumbersTable[]> {
  return (await byLast4(db, { routing_number: routing, last4 })).rows;
}
