import { errorCodes } from '../http/errors.ts';
import { problemSchema } from '../http/problem.schema.ts';
import { idPattern } from '../kit/ids.ts';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is written by keyword
type Json = Record<string, any>;

/** The document's shared components: security, the problem schema, and the headers and parameters every route uses. */
export function sharedComponents(): Json {
  return {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key: `sk_test_` or `sk_live_`, 32 base62 characters and a 6-character checksum.',
      },
    },
    schemas: { Problem: problemSchema(Object.keys(errorCodes())) as Json },
    parameters: {
      'Idempotency-Key': {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): 1–255 visible ASCII characters, ' +
          'unique per request, scoped to your organisation and mode. ' +
          'The same key with the same request replays the first response byte for byte ' +
          '(`Idempotent-Replayed: true`, the original `Request-Id`); with a different request it is 422 ' +
          '`idempotency_key_reused`; ' +
          'while the first is still running, 409 `idempotency_request_in_progress`. Requests refused before ' +
          'they ran, and 5xx, are not stored. Keys are kept at least 24 hours.',
        // No example: a document that shows one key invites tools and readers to send it with every request,
        // and every request after the first with another body is then 422 `idempotency_key_reused`.
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
      },
    },
    headers: {
      'Idempotent-Replayed': {
        description:
          '`true` when this response is the stored response of an earlier request with the same `Idempotency-Key`.',
        schema: { type: 'string', enum: ['true'] },
      },
      'Request-Id': {
        description: 'Identifies this request, `req_…`; equal to `request_id` in an error body. Quote it to support.',
        schema: { type: 'string', pattern: idPattern('req') },
      },
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
      RateLimit: {
        description:
          'The remaining quota of whichever budget is nearer to empty, the key’s or its organisation’s ' +
          '(draft-ietf-httpapi-ratelimit-headers-09): ' +
          '`"default";r=<requests left now>;t=<seconds until the quota is full again>`.',
        schema: { type: 'string', pattern: '^"default";r=\\d+;t=\\d+$' },
      },
      'RateLimit-Policy': {
        description:
          'The policy of the budget nearer to empty, the key’s or its organisation’s for this mode ' +
          '(draft-ietf-httpapi-ratelimit-headers-09): `"default";q=<quota>;w=<window in seconds>`. Live keys ' +
          'default to 100 per second, sandbox keys to 25, each with an equal burst; an organisation 4 times that.',
        schema: { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$' },
      },
    },
  };
}
