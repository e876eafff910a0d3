import { type Static, Type } from 'typebox';
import { CreatedFilter } from '../../platform/http/created-filter.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { type IdKind, idPattern } from '../../platform/kit/ids.ts';
import { IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';

/** The kind of id a request log entry has: the request's own id. */
export const REQUEST: IdKind = { noun: 'request', prefix: 'req' };

/** The methods the API answers (HEAD for every GET); a filter on any other would only ever find nothing. */
export const METHODS = ['GET', 'HEAD', 'POST', 'DELETE'] as const;

/** A `status` filter: one status from 100 to 599, or a class of them (`4xx`, in either case). */
export const STATUS_FILTER_PATTERN = '^[1-5](?:[0-9]{2}|[xX]{2})$';

/** The largest body an entry keeps, in bytes of UTF-8 (docs/api.md#the-request-log). */
export const BODY_MAX_BYTES = 8192;

const nullable = (type: string, description: string, example: unknown) =>
  Type.Unsafe<string | null>({ type: [type, 'null'], description, examples: [example] });

const EXAMPLE = {
  id: 'req_01KAPQ9R3T1V2W3X4Y5Z6A7B8C',
  object: 'request_log',
  method: 'POST',
  route: '/v1/fintech/accounts',
  path: '/v1/fintech/accounts',
  query: null,
  status: 200,
  error_code: null,
  duration_ms: 4.21,
  api_key_id: 'key_D20BX2JY00TY1SK00H0Y2JPAH1',
  api_key_hint: 'sk_test_…hXld',
  idempotency_key: 'b1946ac9-2c2b-4f5e-9d0e-1a2b3c4d5e6f',
  idempotent_replayed: false,
  source: 'api',
  body: '{"type":"business","country":"US","kyb":{"legal_name":"Acme Inc.","ein":"[redacted]"}}',
  body_truncated: false,
  bodies_hidden: false,
  response_body:
    '{"id":"acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D","object":"fintech.account","type":"business","country":"US",' +
    '"status":"active","livemode":false,"created_at":"2026-11-25T09:00Z"}',
  response_truncated: false,
  error_detail: null,
  error_param: null,
  count: null,
  livemode: false,
  created_at: '2026-11-25T09:00Z',
};

export const RequestLog = Type.Object(
  {
    id: Type.String({
      pattern: idPattern('req'),
      description: 'The request id: the `Request-Id` header of its answer, and `request.id` of the events it caused.',
    }),
    object: Type.Literal('request_log'),
    method: StringEnum(METHODS, { description: 'The HTTP method. The list may grow.' }),
    route: Type.String({
      description: 'The operation, as the path template of the OpenAPI document: `/v1/fintech/accounts/{id}`.',
    }),
    path: Type.String({ description: 'The path as sent, without its query string; secret shapes are redacted.' }),
    query: nullable(
      'string',
      'The query string as sent, without its `?`, redacted as `body` is (a parameter named like a secret field has ' +
        'its value replaced by `[redacted]`; the secret part of anything shaped like a key or an EIN too), at most ' +
        '8 KiB. `null` when there was none, for a dashboard action, and for entries recorded before queries were kept.',
      'status=pending&limit=10',
    ),
    status: Type.Integer({ minimum: 100, maximum: 599, description: 'The HTTP status of the answer.' }),
    error_code: nullable('string', 'The problem `code` of an error answer; `null` for a success.', 'account_frozen'),
    duration_ms: Type.Number({
      minimum: 0,
      description: 'Milliseconds from the request’s arrival to its answer, to the microsecond.',
    }),
    api_key_id: Type.String({ pattern: idPattern('key'), description: 'The API key that made the request.' }),
    api_key_hint: Type.String({ description: 'That key’s hint: its mode prefix and last four characters.' }),
    idempotency_key: nullable('string', 'The `Idempotency-Key` it was sent with; `null` when none.', 'b1946ac9'),
    idempotent_replayed: Type.Boolean({
      description: 'True when the answer was the stored answer of an earlier request with the same key.',
    }),
    source: StringEnum(['api', 'dashboard'], {
      description: '`api` for a request to `/v1`; `dashboard` for an action taken in the dashboard.',
    }),
    body: nullable(
      'string',
      'A POST’s JSON body as text, with every secret replaced by `"[redacted]"` (fields named `key`, `secret`, ' +
        '`ein`, `api_key`, `authorization` at any depth; the secret part of anything shaped like a key or an EIN). ' +
        'At most 8 KiB of UTF-8: a longer body is cut there (then it is no longer valid JSON) and `body_truncated` ' +
        'is true. `null` for other methods, for a body that could not be read, and when `bodies_hidden` is true.',
      '{"type":"business","country":"US"}',
    ),
    body_truncated: Type.Boolean({ description: 'True when `body` was cut at 8 KiB.' }),
    bodies_hidden: Type.Boolean({
      description:
        'True when `body` and `response_body` are `null` because the reading key may not read the route’s ' +
        'permission group (a restricted key with `requests: read` but not `accounts: read` sees no body of an ' +
        'account’s request or answer). A full key, or one that may read the group, sees them: then false.',
    }),
    response_body: nullable(
      'string',
      'The JSON body of the answer of a write (`POST`, `DELETE`) or of any failure, as text, redacted exactly as ' +
        '`body` is (a created key’s `key` and a webhook endpoint’s `secret` are `"[redacted]"`) and cut at 8 KiB ' +
        'the same way, `response_truncated` then true. For a dashboard action, the answer of the API operation it ' +
        'stands for. `null` for a successful read (`GET`, `HEAD`: it can be read again), for the request log’s own ' +
        'reads, for an answer that is not JSON, for entries recorded before answers were kept, and when ' +
        '`bodies_hidden` is true.',
      '{"id":"acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D","object":"fintech.account"}',
    ),
    response_truncated: Type.Boolean({ description: 'True when `response_body` was cut at 8 KiB.' }),
    error_detail: nullable(
      'string',
      'The problem’s `detail` of an error answer (redacted as `body` is, at most 1024 characters); `null` for a ' +
        'success.',
      'The account acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D is frozen.',
    ),
    error_param: nullable(
      'string',
      'The problem’s `param` of an error answer: the field or parameter it names; `null` when it names none.',
      'reason',
    ),
    count: Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      minimum: 1,
      description:
        '`null` for an entry of one request. An entry with a `count` stands for that many requests of one API key, ' +
        'made in one second, that its rate limit refused (429 `rate_limited`): they are counted, not recorded one by ' +
        'one. Its other fields are those of the first of them.',
      examples: [null, 1840],
    }),
    livemode: Type.Boolean(),
    created_at: Type.String({ pattern: API_TIME_PATTERN, description: 'When the request arrived.' }),
  },
  {
    $id: 'RequestLog',
    additionalProperties: false,
    description:
      'One authenticated request to `/v1`, or one action taken in the dashboard, as recorded in the request log. ' +
      'Entries are written in batches a few hundred milliseconds after their answer, and kept ' +
      '`REQUEST_LOG_RETENTION_DAYS` (7).',
    examples: [EXAMPLE],
  },
);
export type RequestLog = Static<typeof RequestLog>;

export const RequestLogList = ListPage<RequestLog>(
  'RequestLogList',
  'RequestLog',
  'requests',
  [EXAMPLE],
  true,
  'One page of the request log, newest first.',
);

export const RequestLogListQuery = Type.Object(
  {
    ...ListQuery('request', 'req').properties,
    status: Type.Optional(
      Type.String({
        pattern: STATUS_FILTER_PATTERN,
        description:
          'Only answers with this HTTP status (`409`), or of this class: `2xx` (successes), `4xx` (refusals), `5xx` ' +
          '(server errors); `1xx` and `3xx` are taken too.',
        examples: ['409', '4xx'],
      }),
    ),
    method: Type.Optional(StringEnum(METHODS, { description: 'Only requests with this method.' })),
    created: Type.Optional(CreatedFilter),
  },
  { additionalProperties: false },
);
export type RequestLogListQuery = Static<typeof RequestLogListQuery>;

export const RequestLogIdParams = Type.Object(
  { id: IdOf('req', { description: 'A request id, `req_…`: the `Request-Id` header of its answer.' }) },
  { additionalProperties: false },
);
