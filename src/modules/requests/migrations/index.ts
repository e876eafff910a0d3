import type { Migration } from 'kysely';
import * as m20261125T0900 from './2026-11-25T0900_request_log.ts';
import * as m20261126T0900 from './2026-11-26T0900_request_log_count.ts';
import * as m20261126T1400 from './2026-11-26T1400_request_log_response.ts';
import * as m20261128T0210 from './2026-11-28T0210_request_log_query.ts';

/**
 * The request log's migrations, by the names every database already recorded: they were the platform's until
 * the split by role (issue 38) and keep their names, so that no database runs them twice. Applied in name order
 * with every other module's.
 */
export const REQUESTS_MIGRATIONS: Record<string, Migration> = {
  '2026-11-25T0900_request_log': m20261125T0900,
  '2026-11-26T0900_request_log_count': m20261126T0900,
  '2026-11-26T1400_request_log_response': m20261126T1400,
  '2026-11-28T0210_request_log_query': m20261128T0210,
};
