import { apiTime } from '../../platform/kit/time.ts';
import type { RequestLog } from './requests.schema.ts';
import type { RequestLogsTable } from './tables.ts';

/**
 * An entry as a reader sees it: `bodiesHidden` when the reader may not read the route's group
 * (docs/api.md#the-request-log), and then neither body is shown.
 */
export function requestLogFromRow(row: RequestLogsTable, bodiesHidden: boolean): RequestLog {
  return {
    id: row.id,
    object: 'request_log',
    method: row.method as RequestLog['method'],
    route: row.route,
    path: row.path,
    query: row.query ?? null,
    status: row.status,
    error_code: row.error_code,
    duration_ms: row.duration_us / 1000,
    api_key_id: row.api_key_id,
    api_key_hint: row.api_key_hint,
    idempotency_key: row.idempotency_key,
    idempotent_replayed: row.replayed === 1,
    source: row.source,
    body: bodiesHidden ? null : row.body,
    body_truncated: !bodiesHidden && row.body_truncated === 1,
    bodies_hidden: bodiesHidden,
    response_body: bodiesHidden ? null : row.response_body,
    response_truncated: !bodiesHidden && row.response_truncated === 1,
    error_detail: row.error_detail,
    error_param: row.error_param,
    count: row.count ?? null,
    livemode: row.mode === 'live',
    created_at: apiTime(row.created_at),
  };
}
