import { Type } from 'typebox';
import { flag, integer } from '../../platform/kit/settings.ts';
import { defineModule } from '../../platform/module.ts';
import { installRequestLog } from './install.ts';
import { REQUESTS_MIGRATIONS } from './migrations/index.ts';

export { requestOps } from './requests.routes.ts';

export const RequestLogSettings = Type.Object({
  REQUEST_LOG: flag(
    true,
    '`on` records every authenticated `/v1` request and dashboard action in the request log (`GET /v1/requests`); ' +
      '`off` records nothing',
  ),
  REQUEST_LOG_RETENTION_DAYS: integer(7, 1, 3650, 'days request log entries are kept before being purged'),
  REQUEST_LOG_BUFFER: integer(
    5000,
    1,
    1_000_000,
    'request log entries held in memory before they are written (and as many KiB of their bodies and answers); ' +
      'past it, entries are dropped and counted in `plinth_request_log_dropped_total`',
  ),
  REQUEST_LOG_FLUSH_MS: integer(
    200,
    10,
    60_000,
    'milliseconds a request log entry may wait for its batch to be written (a batch of 256 is written at once)',
  ),
});

/** The request log (docs/api.md#the-request-log): every authenticated /v1 request and dashboard action. */
export const requests = defineModule({
  name: 'requests',
  migrations: REQUESTS_MIGRATIONS,
  tags: [
    {
      name: 'Requests',
      description:
        'The request log: every authenticated request to `/v1` and every dashboard action, with secrets redacted, ' +
        'kept `REQUEST_LOG_RETENTION_DAYS` (7).',
    },
  ],
  settings: RequestLogSettings,
  install(app, { database, clock, registry, settings }) {
    installRequestLog(app, {
      database,
      clock,
      registry,
      enabled: settings.REQUEST_LOG,
      retentionDays: settings.REQUEST_LOG_RETENTION_DAYS,
      capacity: settings.REQUEST_LOG_BUFFER,
      flushMs: settings.REQUEST_LOG_FLUSH_MS,
    });
  },
});

// The public face the dashboard reads (its own actions are recorded through app.requestLog).
export { templateOf } from './entry.ts';
export type { DashboardAction } from './install.ts';
export {
  METHODS,
  type RequestLog,
  RequestLogIdParams,
  RequestLogListQuery,
  STATUS_FILTER_PATTERN,
} from './requests.schema.ts';
export { listRequestLogs, retrieveRequestLog } from './requests.service.ts';
