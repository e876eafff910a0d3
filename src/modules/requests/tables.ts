import type { Mode } from '../../platform/auth/principal.ts';

/** Where a recorded request came from: the API, or an action taken in the dashboard. */
export type RequestSource = 'api' | 'dashboard';

/**
 * One recorded request (docs/api.md#the-request-log), written in batches by recorder.ts. Its id is the request's own
 * `req_…` id. The table also has a `tx` column that the code never reads as a value: the list order (see
 * requests.repository.ts).
 */
export interface RequestLogsTable {
  id: string;
  org_id: string;
  mode: Mode;
  method: string;
  /** The route's path template as the OpenAPI document writes it: `/v1/fintech/accounts/{id}`. */
  route: string;
  /** The path as sent, without the query string, with secret shapes redacted. */
  path: string;
  /** The query string as sent, without its `?`, redacted as bodies are (answer.ts); null when none. */
  query: string | null;
  status: number;
  /** The problem's `code` when the answer was one; null for a success. */
  error_code: string | null;
  /** Microseconds from the request's arrival to its answer. */
  duration_us: number;
  api_key_id: string;
  api_key_hint: string;
  idempotency_key: string | null;
  /** 1 when the answer was an idempotent replay, else 0. */
  replayed: number;
  source: RequestSource;
  /** A POST's JSON body with its secrets redacted, at most 8 KiB of UTF-8; null for other methods. */
  body: string | null;
  /** 1 when `body` was cut at 8 KiB, else 0. */
  body_truncated: number;
  /**
   * The answer's JSON body, redacted as `body` is, at most 8 KiB of UTF-8, for a write or a failure; null for a
   * successful read (it can be read again), HEAD and older entries.
   */
  response_body: string | null;
  /** 1 when `response_body` was cut at 8 KiB, else 0. */
  response_truncated: number;
  /** An error answer's problem `detail` (redacted), else null. */
  error_detail: string | null;
  /** An error answer's problem `param`, when it named one; else null. */
  error_param: string | null;
  /** For an entry that stands for the refused requests of one key in one second (see refusals.ts), how many; else null. */
  count: number | null;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    request_logs: RequestLogsTable;
  }
}
