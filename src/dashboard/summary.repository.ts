import type { Db } from '../db/database.ts';
import type { WebhookEndpointsTable } from '../modules/webhooks/index.ts';
import type { Principal } from '../platform/auth/principal.ts';

/**
 * The home page's overview of one org and mode: reads only, counted in the database. Counts and totals scan the
 * org's rows of that mode (indexed by org and mode); the API's lists are paged and never count.
 */

export async function accountCounts(db: Db, owner: Principal): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('accounts')
    .select(['status', db.fn.countAll<number | string>().as('n')])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** What the org's customer accounts hold, per currency (exact: sums come back as text where they could overflow). */
export async function totalsByCurrency(db: Db, owner: Principal): Promise<{ currency: string; total: bigint }[]> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['currency', db.fn.sum<number | string>('balance').as('total')])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('kind', '=', 'customer')
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  return rows.map((r) => ({ currency: r.currency, total: BigInt(r.total ?? 0) }));
}

export async function countOf(db: Db, table: 'transfers' | 'webhook_endpoints', owner: Principal): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(db.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Endpoints whose deliveries fail: disabled for failing or gone, or enabled with attempts failing since a time. */
export function failingEndpoints(db: Db, owner: Principal): Promise<WebhookEndpointsTable[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where((eb) =>
      eb.or([
        eb('failing_since', 'is not', null),
        eb.and([eb('status', '=', 'disabled'), eb('disabled_reason', 'in', ['failing', 'gone'])]),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(10)
    .execute();
}
