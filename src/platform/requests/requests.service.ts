import type { Db } from '../../db/database.ts';
import type { Principal } from '../auth/principal.ts';
import { createdRange } from '../http/created-filter.ts';
import { notFound } from '../http/errors.ts';
import { listPage } from '../http/pagination.ts';
import { isIdOf } from '../kit/ids.ts';
import * as repo from './requests.repository.ts';
import { REQUEST, type RequestLog, type RequestLogListQuery } from './requests.schema.ts';
import { requestLogFromRow } from './requests.view.ts';

export async function retrieveRequestLog(db: Db, owner: Principal, id: string): Promise<RequestLog> {
  const row = isIdOf(REQUEST.prefix, id) ? await repo.findRequestLog(db, owner, id) : undefined;
  if (row === undefined) throw notFound(REQUEST, id);
  return requestLogFromRow(row);
}

export async function listRequestLogs(db: Db, owner: Principal, query: RequestLogListQuery) {
  const filters = { status: query.status, method: query.method, created: createdRange(query.created) };
  const page = await listPage(
    query,
    async (id) => isIdOf(REQUEST.prefix, id) && (await repo.findRequestLog(db, owner, id)) !== undefined,
    (take, cursor) => repo.pageRequestLogs(db, owner, filters, take, cursor),
  );
  return { object: 'list' as const, data: page.rows.map(requestLogFromRow), has_more: page.hasMore };
}
