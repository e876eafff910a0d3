import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { newId } from '../kit/ids.ts';
import { installRouteOf, routeOf } from './route-of.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The problem `code` this request was answered with (set where problems are sent), else null. */
    errorCode: string | null;
  }
}

export function requestId(): string {
  return newId('req');
}

/**
 * One JSON line per request (Fastify's default is two, which costs throughput), carrying the request id.
 * The access log, on stdout; not the request log of modules/requests/, stored and served by GET /v1/requests.
 * It names the route pattern and the path, never headers, query strings or bodies, so no secret can reach it.
 */
export class AccessLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      route: routeOf(request).url ?? null,
      path: request.url.split('?')[0]!.slice(0, 200),
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      org_id: request.principal?.orgId,
      key_id: request.principal?.keyId,
    };
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}

/**
 * Every response, success or error, carries its Request-Id and `nosniff`; every /v1 response `no-store` (it may
 * hold a secret, and is never the same twice). Set first, so that no hook that refuses a request can skip them.
 */
export function installRequestId(app: FastifyInstance): void {
  app.decorateRequest('errorCode', null);
  installRouteOf(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id).header('x-content-type-options', 'nosniff');
    if (request.url.startsWith('/v1/') || request.url === '/v1') reply.header('cache-control', 'no-store');
    done();
  });
}
