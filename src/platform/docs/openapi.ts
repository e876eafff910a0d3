import type { SwaggerOptions } from '@fastify/swagger';
import { type ErrorCode, errorEntry, problemType } from '../http/errors.ts';
import { sharedComponents } from './components.ts';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked and edited by keyword
type Json = Record<string, any>;

/** Authenticated POSTs take an Idempotency-Key (see platform/idempotency.ts). */
function idempotent(operation: Json): boolean {
  return operation.security === undefined && operation.requestBody !== undefined && operation['x-method'] === 'post';
}

/** Errors an operation can give because of its shape; `x-problems` on a route schema adds its own. */
function problemsOf(operation: Json, path: string): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const authenticated = operation.security === undefined;
  if (authenticated) codes.push('api_key_missing', 'api_key_invalid', 'rate_limited');
  // A restricted key without the operation's permission (docs/api.md#restricted-keys).
  if (operation['x-permission'] !== undefined) codes.push('permission_denied');
  const parameters: Json[] = operation.parameters ?? [];
  if (operation.requestBody)
    codes.push(
      'body_malformed',
      'parameter_missing',
      'parameter_invalid',
      'parameter_unknown',
      'body_too_large',
      'media_type_unsupported',
    );
  // Every operation refuses query parameters it does not define (platform/http/query.ts).
  codes.push('parameter_invalid', 'parameter_unknown');
  if (path.startsWith('/v1/') && parameters.some((p) => p.in === 'path')) codes.push('resource_not_found');
  // A filter object (`metadata[...]`, up to 50 pairs of 540 characters) can take a valid URL past the 16 KiB that the
  // request line and headers may hold together.
  if (parameters.some((p) => p.in === 'query' && p.schema?.type === 'object')) codes.push('headers_too_large');
  if (idempotent(operation))
    codes.push('parameter_invalid', 'idempotency_request_in_progress', 'idempotency_key_reused');
  codes.push(...((operation['x-problems'] ?? []) as ErrorCode[]), 'internal_error', 'service_unavailable');
  return [...new Set(codes)];
}

const REQUEST_ID = { $ref: '#/components/headers/Request-Id' };

function problemResponse(codes: ErrorCode[]): Json {
  const status = errorEntry(codes[0]!).status;
  const headers: Json = { 'Request-Id': REQUEST_ID };
  if (status === 401)
    headers['WWW-Authenticate'] = { description: 'Always `Bearer realm="plinth"`.', schema: { type: 'string' } };
  if (status === 405) headers.Allow = { description: 'The methods the path has.', schema: { type: 'string' } };
  if (status === 503 || status === 429 || status === 409)
    headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  const examples: Json = {};
  for (const code of codes) {
    const entry = errorEntry(code);
    examples[code] = {
      summary: entry.title,
      value: {
        type: problemType(code),
        title: entry.title,
        status,
        detail: entry.description.replace(/`/g, ''),
        code,
        request_id: 'req_01M7Z25FEAPTK5AVEMG5JXPY7P',
      },
    };
  }
  return {
    description: codes.map((c) => `\`${c}\``).join(', '),
    headers,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, examples } },
  };
}

/** Adds what @fastify/swagger cannot infer: the error responses, the shared headers, public routes' security. */
export function finishDocument(document: Json): Json {
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      operation['x-method'] = method;
      // An object in the query (`created`, `metadata`) is sent as `created[gte]=…` (see http/query-parser.ts).
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'query' && parameter.schema?.type === 'object') {
          parameter.style = 'deepObject';
          parameter.explode = true;
        }
      if (idempotent(operation)) {
        operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/Idempotency-Key' }];
        operation.responses['200'].headers = {
          ...operation.responses['200'].headers,
          'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' },
        };
      }
      for (const response of Object.values<Json>(operation.responses)) {
        response.headers = { 'Request-Id': REQUEST_ID, ...response.headers };
      }
      const rateLimited = operation.security === undefined; // every authenticated response carries the key's limit
      const byStatus = new Map<number, ErrorCode[]>();
      for (const code of problemsOf(operation, path)) {
        const status = errorEntry(code).status;
        byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
      }
      for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b))
        operation.responses[status] = problemResponse(codes);
      if (rateLimited) {
        for (const [status, response] of Object.entries<Json>(operation.responses)) {
          if (status === '401') continue; // no key, no key limit
          response.headers = {
            ...response.headers,
            RateLimit: { $ref: '#/components/headers/RateLimit' },
            'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
          };
        }
      }
      delete operation['x-problems'];
      if (operation['x-example-200'] !== undefined)
        operation.responses['200'].content['application/json'].example = operation['x-example-200'];
      delete operation['x-example-200'];
      if (operation['x-body-optional']) operation.requestBody.required = false;
      delete operation['x-body-optional'];
      delete operation['x-method'];
    }
  }
  return document;
}

export const OPENAPI_VERSION = '0.1.0';

/** `moduleTags`: every module's tags, in registry order (src/modules.ts), shown before the core's own. */
export function swaggerOptions(moduleTags: { name: string; description: string }[]): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plinth API',
        version: OPENAPI_VERSION,
        description:
          'One HTTP JSON API for every Plinth product, under `/v1`. Authenticate with `Authorization: Bearer ' +
          '<API key>`: ' +
          '`sk_test_…` keys act in the sandbox, `sk_live_…` keys on live data, ' +
          'and each sees only its own objects. ' +
          'Every error is an RFC 9457 problem (`application/problem+json`) whose `code` is listed in the error ' +
          'catalogue at `/docs/errors`. ' +
          'Every timestamp is UTC, `YYYY-MM-DDTHH:MMZ`, except the moments a balance or a statement echoes (UTC ' +
          'to the millisecond). Enums documented as open may gain values: accept values ' +
          'you do not know.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: 'http://127.0.0.1:8080', description: 'A local Plinth (`npm start`)' }],
      tags: [
        ...moduleTags,
        { name: 'Operations', description: 'Health and readiness, outside `/v1` and without authentication.' },
        { name: 'Documentation', description: 'This document, its rendering and the error catalogue.' },
      ],
      security: [{ bearerAuth: [] }],
      components: sharedComponents(),
    },
    // Shared schemas (app.addSchema) become components named by their $id, so generated clients get named types.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: Json }).openapiObject) as never,
  };
}

declare module 'fastify' {
  interface FastifySchema {
    /** Error codes this operation gives beyond those its shape implies (see problemsOf). */
    'x-problems'?: ErrorCode[];
    /** The example of this operation's 200 answer, where the shared schema's own would mislead. */
    'x-example-200'?: unknown;
    /** The body may be left out entirely; it is then `{}` (see installJsonBody). */
    'x-body-optional'?: boolean;
    /** What a restricted key needs to call it (docs/api.md#restricted-keys); kept in the document. */
    'x-permission'?: { group: string; level: string };
  }
}
