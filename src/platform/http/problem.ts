import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { isDatabaseUnavailable } from '../../db/database.ts';
import { ApiError, toProblem } from './errors.ts';
import { toValidationError } from './validation.ts';

export function sendProblem(reply: FastifyReply, error: ApiError): FastifyReply {
  const problem = toProblem(error, String(reply.request.id));
  reply.request.errorCode = error.code;
  return reply
    .code(error.status)
    .headers(error.headers)
    .header('content-type', 'application/problem+json')
    .send(JSON.stringify(problem));
}

// Fastify's own errors, by code, in the terms of docs/api.md#errors: thrown to the error handler, or handed to
// `frameworkErrors`.
const FASTIFY_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('body_too_large', 'The body is over 64 KiB.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('media_type_unsupported', 'Send the body as application/json.', { param: 'Content-Type' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError('body_malformed', 'The body is empty; send a JSON object.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError('body_malformed', 'The body is not valid JSON.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError('body_malformed', 'The body length does not match Content-Length.'),
  FST_ERR_BAD_URL: () => new ApiError('route_not_found', 'The request could not be understood.'),
  FST_ERR_ASYNC_CONSTRAINT: () => new ApiError('body_malformed', 'The request could not be understood.'),
};

/**
 * Fastify's `frameworkErrors` option: errors it raises before routing (a malformed URL, a failed constraint), which
 * never reach the error handler, answered from the same table.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.header('request-id', reply.request.id);
  sendProblem(reply, FASTIFY_ERRORS[error.code]?.() ?? FASTIFY_ERRORS.FST_ERR_ASYNC_CONSTRAINT!());
}

/**
 * Anything thrown, anywhere, as the error of docs/api.md#errors. Unknown errors become a 500 that discloses nothing.
 */
export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation)
    return toValidationError(fastifyError.validation as never, fastifyError.validationContext ?? 'request');
  const mapped = fastifyError.code === undefined ? undefined : FASTIFY_ERRORS[fastifyError.code];
  if (mapped) return mapped();
  if (fastifyError.statusCode === 413) return FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE!();
  if (isDatabaseUnavailable(error))
    return new ApiError('service_unavailable', 'The database is unavailable; retry later.');
  return new ApiError('internal_error', 'An internal error occurred.');
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every registered route: path pattern → methods. Backs 405s, and the test that compares it to the OpenAPI
     * document.
     */
    routeTable: ReadonlyMap<string, ReadonlySet<string>>;
  }
}

/** The client hung up (or was cut by the request timeout) while its request was still arriving. */
function clientWentAway(request: FastifyRequest): boolean {
  return request.raw.readableAborted || (!request.raw.complete && request.raw.socket?.destroyed === true);
}

/** The one error handler, the 404/405 handler, and Fastify's framework errors, all in RFC 9457. */
export function installErrorHandling(app: FastifyInstance): void {
  // A shadow router of every registered route, to tell "no such path" (404) from "wrong method" (405).
  const shadow = FindMyWay();
  const methodsByPattern = new Map<string, Set<string>>();
  app.decorate('routeTable', methodsByPattern);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let set = methodsByPattern.get(route.url);
    if (set === undefined) {
      set = new Set();
      methodsByPattern.set(route.url, set);
      shadow.on('GET', route.url, () => undefined, { pattern: route.url });
    }
    for (const m of methods) set.add(m);
  });

  // A request no route matched still passes the hooks (and Fastify's body checks, which refuse a QUERY without
  // Content-Type, as an error Fastify has no status for): whatever they object to, it is answered as what it is,
  // a 404 or a 405. Only a 503 (shutting down, database gone) tells the client more than that.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (clientWentAway(request)) {
      // Nobody is left to answer, and nothing failed on our side: not a 5xx, not an error line.
      request.log.info({ reason: 'the client closed the connection before its request arrived' }, 'abandoned');
      return sendProblem(reply, new ApiError('body_malformed', 'The body did not arrive completely.'));
    }
    const apiError = toApiError(error);
    if (request.is404 && apiError.status !== 503) return unrouted(request, reply);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, apiError);
  });

  const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const found = shadow.find('GET', path);
    const allowed = found ? methodsByPattern.get((found.store as { pattern: string }).pattern) : undefined;
    if (allowed && allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      return sendProblem(
        reply,
        new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, {
          headers: { allow },
        }),
      );
    }
    return sendProblem(reply, new ApiError('route_not_found', `No route ${request.method} ${path.slice(0, 200)}.`));
  };
  app.setNotFoundHandler(unrouted);
}
