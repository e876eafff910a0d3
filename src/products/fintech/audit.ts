import { describe, needs } from '../../platform/auth/permissions.ts';
import type { EventCheck } from '../../platform/outbox/chain.ts';
import { transactionIdsSince, transactionsByIds } from './transactions.repository.ts';
import { transactionFromRow } from './transactions.view.ts';

/**
 * `cli audit verify`'s check of the ledger (docs/api.md#verifying-the-history): every transaction reported by a
 * `fintech.transaction.created` body still reads as that body says, and every transaction made while bodies are kept
 * was reported. The chain proves the bodies unchanged; this proves the ledger's rows unchanged since.
 */
export const transactionsAgreeWithEvents: EventCheck = {
  type: 'fintech.transaction.created',
  table: 'ledger_entries',
  reads: needs('transactions', 'read'),
  async check(db, owner, bodies, showRows) {
    const rows = new Map(
      (
        await transactionsByIds(
          db,
          owner,
          bodies.map((b) => b.object.id),
        )
      ).map((row) => [row.id, row]),
    );
    const problems: { sequence: number; why: string }[] = [];
    for (const { sequence, object } of bodies) {
      const row = rows.get(object.id);
      if (row === undefined) {
        problems.push({ sequence, why: `transaction ${object.id} is gone from the ledger` });
        continue;
      }
      const now = transactionFromRow(row) as unknown as Record<string, unknown>;
      const changed = Object.keys({ ...now, ...object }).filter(
        (field) => JSON.stringify(now[field]) !== JSON.stringify(object[field]),
      );
      if (changed.length > 0)
        problems.push({
          sequence,
          why: showRows
            ? `transaction ${object.id} differs from its event in ${changed.join(', ')}: ` +
              changed.map((f) => `${f} ${JSON.stringify(now[f])}, event ${JSON.stringify(object[f])}`).join('; ')
            : `transaction ${object.id} differs from its event in ${changed.join(', ')} (what the ledger holds now ` +
              `needs ${describe('transactions', 'read')}): ` +
              changed.map((f) => `event ${f} ${JSON.stringify(object[f])}`).join('; '),
        });
    }
    return problems;
  },
  async unreported(db, owner, since, seen) {
    return (await transactionIdsSince(db, owner, since)).filter((id) => !seen.has(id));
  },
};
