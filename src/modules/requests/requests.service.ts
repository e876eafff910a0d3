import type { Db } from '../../db/database.ts';
import { allows, type Permission } from '../../platform/auth/permissions.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { createdRange } from '../../platform/http/created-filter.ts';
import { notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { type Operations, routeOf } from '../../platform/operations/operation.ts';
import * as repo from './requests.repository.ts';
import { REQUEST, type RequestLog, type RequestLogListQuery } from './requests.schema.ts';
import { requestLogFromRow } from './requests.view.ts';
import type { RequestLogsTable } from './tables.ts';

const permissionsByRoute = new WeakMap<Operations, Map<string, Permission>>();

/** The permission each declared route needs, by `GET /v1/fintech/accounts/{id}` (HEAD is its GET's). */
function permissionOfRoute(operations: Operations, method: string, route: string): Permission | undefined {
  let byRoute = permissionsByRoute.get(operations);
  if (byRoute === undefined) {
    byRoute = new Map([...operations.values()].map((op) => [routeOf(op), op.permission]));
    permissionsByRoute.set(operations, byRoute);
  }
  return byRoute.get(`${method === 'HEAD' ? 'GET' : method} ${route}`);
}

/**
 * Whether `reader` sees an entry's bodies (docs/api.md#the-request-log): a full key always; a restricted key where
 * it may read the group of the entry's route (`accounts: read` for an account's create, retrieve or freeze). An entry
 * of a route that is not an operation (a dashboard form refused before it named one) shows its bodies to full keys
 * only.
 */
function mayReadBodies(operations: Operations, reader: Principal, row: RequestLogsTable): boolean {
  if (reader.permissions === null) return true;
  const needed = permissionOfRoute(operations, row.method, row.route);
  if (needed === undefined) return false;
  return needed === 'public' || allows(reader.permissions, { group: needed.group, level: 'read' });
}

const asSeenBy = (operations: Operations, reader: Principal) => (row: RequestLogsTable) =>
  requestLogFromRow(row, !mayReadBodies(operations, reader, row));

export async function retrieveRequestLog(
  db: Db,
  operations: Operations,
  owner: Principal,
  id: string,
): Promise<RequestLog> {
  const row = isIdOf(REQUEST.prefix, id) ? await repo.findRequestLog(db, owner, id) : undefined;
  if (row === undefined) throw notFound(REQUEST, id);
  return asSeenBy(operations, owner)(row);
}

/** A `status` filter (`409`, `4xx`) as the repository takes it; the schema has checked its shape. */
function statusFilter(status: string | undefined): repo.RequestLogFilters['status'] {
  if (status === undefined) return undefined;
  const hundreds = Number(status[0]);
  return /x/i.test(status) ? { class: hundreds } : { exact: Number(status) };
}

export async function listRequestLogs(db: Db, operations: Operations, owner: Principal, query: RequestLogListQuery) {
  const filters = { status: statusFilter(query.status), method: query.method, created: createdRange(query.created) };
  const page = await listPage(
    query,
    async (id) => isIdOf(REQUEST.prefix, id) && (await repo.findRequestLog(db, owner, id)) !== undefined,
    (take, cursor) => repo.pageRequestLogs(db, owner, filters, take, cursor),
  );
  return { object: 'list' as const, data: page.rows.map(asSeenBy(operations, owner)), has_more: page.hasMore };
}
