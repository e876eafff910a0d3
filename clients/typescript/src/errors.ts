/**
 * The one error a Plinth call throws. An API refusal carries the RFC 9457 problem the server sent; a transport
 * failure (no connection, timeout) carries `status: 0` and a code of this library's own, so callers need one
 * `catch (e) { if (e instanceof PlinthError) … }` for everything that can go wrong with a request.
 */
import type { ProblemErrorsItem } from '../generated/index.js';

export interface PlinthErrorFields {
  status: number;
  code: string;
  title?: string;
  detail?: string;
  type?: string;
  param?: string;
  errors?: ProblemErrorsItem[];
  requestId?: string;
  cause?: unknown;
}

export class PlinthError extends Error {
  /** The HTTP status; 0 when no response arrived. */
  readonly status: number;
  /**
   * What to switch on: the problem's `code` (`parameter_invalid`, `rate_limited`, …), an open string because the
   * server's list grows; or `connection_failed` / `timeout` when no response arrived.
   */
  readonly code: string;
  readonly title: string | undefined;
  /** For people; may change from one release to the next: do not parse it. */
  readonly detail: string | undefined;
  readonly type: string | undefined;
  /** The first offending input: a dotted field path (`kyb.ein`) or a header name. */
  readonly param: string | undefined;
  /** Every offending input when a request has several. */
  readonly errors: ProblemErrorsItem[];
  /** The `Request-Id` (`req_…`) to quote to support. */
  readonly requestId: string | undefined;

  constructor(fields: PlinthErrorFields) {
    super(`${fields.status || 'no response'} ${fields.code}: ${fields.detail ?? fields.title ?? ''}`.trim(), {
      cause: fields.cause,
    });
    this.name = 'PlinthError';
    this.status = fields.status;
    this.code = fields.code;
    this.title = fields.title;
    this.detail = fields.detail;
    this.type = fields.type;
    this.param = fields.param;
    this.errors = fields.errors ?? [];
    this.requestId = fields.requestId;
  }

  /** Builds the error from a non-2xx response, whatever its body (a proxy's HTML page is not a problem body). */
  static async fromResponse(response: Response): Promise<PlinthError> {
    const headerId = response.headers.get('request-id') ?? undefined;
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = await response.json();
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: keep the status, and say the body was not a problem.
    }
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
    return new PlinthError({
      status: response.status,
      code: text('code') ?? 'unknown_error',
      title: text('title'),
      detail: text('detail') ?? response.statusText,
      type: text('type'),
      param: text('param'),
      errors: Array.isArray(body.errors) ? (body.errors as ProblemErrorsItem[]) : [],
      requestId: text('request_id') ?? headerId,
    });
  }
}
