import { sql } from 'kysely';
import { preparedSend } from '../../db/prepared.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';

export const insertReversal = preparedInsert('transfer_reversals', {
  id: true,
  org_id: true,
  mode: true,
  transfer_id: true,
  amount: true,
  currency: true,
  description: true,
  metadata: true,
  created_at: true,
});

/**
 * Adds to a transfer's `amount_reversed`. The database bounds it by what was posted (a CHECK) and lets it only grow
 * on a posted transfer (the transfers guard trigger): whatever the application decided, reversals racing each other
 * can never sum above `posted_amount`.
 */
export const addReversed = preparedSend<{ id: string; amount: number }>({ id: true, amount: true }, (db, p) =>
  db
    .updateTable('transfers')
    .set({ amount_reversed: sql`amount_reversed + ${p.amount}` })
    .where('id', '=', p.id),
);
