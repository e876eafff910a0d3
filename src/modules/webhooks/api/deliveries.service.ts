import type { Db } from '../../../db/database.ts';
import { findOwned } from '../../../db/owned.ts';
import type { Principal } from '../../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../../platform/http/errors.ts';
import { type ListParams, listPage } from '../../../platform/http/pagination.ts';
import { isIdOf } from '../../../platform/kit/ids.ts';
import { storedTime } from '../../../platform/kit/time.ts';
import type { WriteContext } from '../../../platform/operations/context.ts';
import type { EventOwner } from '../../../platform/outbox/emit.ts';
import { findEventOrThrow } from '../../events/index.ts';
import * as repo from './deliveries.repository.ts';
import { WEBHOOK_DELIVERY, type WebhookDelivery } from './deliveries.schema.ts';
import { deliveryFromRow } from './deliveries.view.ts';
import { findEndpointById } from './endpoints.repository.ts';
import { findEndpointOrThrow } from './endpoints.service.ts';

async function page(
  db: Db,
  owner: EventOwner,
  by: Parameters<typeof repo.pageDeliveries>[1],
  params: ListParams & { status?: string },
) {
  const result = await listPage(
    params,
    async (id) =>
      isIdOf(WEBHOOK_DELIVERY.prefix, id) && (await findOwned(db, 'webhook_deliveries', owner, id)) !== undefined,
    (take, cursor) => repo.pageDeliveries(db, by, params.status, take, cursor),
  );
  return { object: 'list' as const, data: result.rows.map(deliveryFromRow), has_more: result.hasMore };
}

export async function listEndpointDeliveries(
  db: Db,
  owner: Principal,
  id: string,
  params: ListParams & { status?: string },
) {
  const endpoint = await findEndpointOrThrow(db, owner, id);
  return page(db, owner, { endpointId: endpoint.id }, params);
}

export async function listEventDeliveries(db: Db, owner: Principal, id: string, params: ListParams) {
  const event = await findEventOrThrow(db, owner, id);
  return page(db, owner, { eventId: event.id }, params);
}

/** One more attempt, due now and outside the schedule (it does not use up a scheduled retry). */
export async function retryDelivery(ctx: WriteContext<Principal>, id: string): Promise<WebhookDelivery> {
  const { trx, owner } = ctx;
  const row = isIdOf(WEBHOOK_DELIVERY.prefix, id) ? await findOwned(trx, 'webhook_deliveries', owner, id) : undefined;
  if (row === undefined) throw notFound(WEBHOOK_DELIVERY, id);
  const endpoint = await findEndpointById(trx, row.endpoint_id);
  if (endpoint?.status !== 'enabled') {
    throw new ApiError('webhook_endpoint_disabled', `The endpoint ${row.endpoint_id} is disabled; enable it first.`, {
      param: 'id',
    });
  }
  const changes = { status: 'pending' as const, manual: 1, next_attempt_at: storedTime(ctx.now), claim: null };
  await repo.updateDelivery(trx, row.id, changes);
  return deliveryFromRow({ ...row, ...changes });
}
