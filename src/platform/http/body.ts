import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { parseStrictJson } from './json-body.ts';
import { routeOf } from './route-of.ts';
import { installWellFormedText } from './well-formed.ts';

/** docs/api.md#the-wire: bodies over 64 KiB are refused with 413. */
export const BODY_LIMIT = 64 * 1024;

function charsetIsUtf8(contentType: string): boolean {
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, value] = parameter.split('=').map((s) => s.trim().toLowerCase());
    if (name === 'charset' && value?.replace(/^"|"$/g, '') !== 'utf-8') return false;
  }
  return true;
}

/** Only JSON bodies: every other media type, or a charset other than UTF-8, is a 415. */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, raw, done) => {
    if (!charsetIsUtf8(request.headers['content-type'] ?? '')) {
      done(new ApiError('media_type_unsupported', 'JSON bodies must be UTF-8.', { param: 'Content-Type' }), undefined);
      return;
    }
    try {
      // An empty body is no body (clients send the header on body-less POSTs): an optional body then counts as
      // `{}`, and a required one is refused by validation like any missing body.
      done(null, (raw as Buffer).length === 0 ? undefined : parseStrictJson(raw as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Operations whose body is optional (`x-body-optional`) validate a missing body as `{}`.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && routeOf(request).schema?.['x-body-optional']) request.body = {};
    done();
  });
  // With the body's rules, for every route: the body's strings, and the query string's and path's too.
  installWellFormedText(app);
}
