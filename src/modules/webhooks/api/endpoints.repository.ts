import type { Db, Trx } from '../../../db/database.ts';
import { preparedWrite } from '../../../db/prepared.ts';
import type { EventOwner } from '../../../platform/outbox/emit.ts';
import type { WebhookEndpointsTable } from '../tables.ts';

export function findEndpointById(db: Db, id: string): Promise<WebhookEndpointsTable | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countEndpoints(db: Db, owner: EventOwner): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEndpoint(trx: Trx, row: WebhookEndpointsTable): Promise<void> {
  await trx.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(trx: Trx, id: string, changes: Partial<WebhookEndpointsTable>): Promise<void> {
  await trx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

/** A success ends a run of failures; a statement that changes no row when there was none (the usual case). */
const clearFailingRow = preparedWrite<{ id: string }>({ id: true }, (db, p) =>
  db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', p.id)
    .where('failing_since', 'is not', null),
);

/** After a success: the endpoint is no longer failing (a write only when it was). */
export async function clearFailing(trx: Trx, id: string): Promise<void> {
  await clearFailingRow(trx, { id });
}

export async function deleteEndpoint(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** A disabled endpoint gets nothing more: its pending deliveries fail now (a retry can replay them later). */
export async function failPendingDeliveries(trx: Trx, endpointId: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, claim: null, manual: 0 })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}
