import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';

/** What the app's hooks read of a request's route: its URL as registered (`/v1/things/:id`), config and schema. */
export interface RouteSeen {
  /** Undefined when no route matched (the 404 handler answers). */
  url: string | undefined;
  config: FastifyContextConfig | undefined;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Its route as `routeOf` read it, once; null until then. */
    routeSeen: RouteSeen | null;
  }
}

/** Declares `request.routeSeen` (the app does, before any hook). */
export function installRouteOf(app: FastifyInstance): void {
  app.decorateRequest('routeSeen', null);
}

/**
 * The request's route, read once per request: Fastify's `request.routeOptions` builds a new object of a dozen of the
 * route's options (and asks the router about version constraints) at every read, and the authentication, the query
 * and body checks, the request log, the metrics and the access log each need the route.
 */
export function routeOf(request: FastifyRequest): RouteSeen {
  let seen = request.routeSeen;
  if (seen === null) {
    const options = request.routeOptions;
    seen = { url: options.url, config: options.config, schema: options.schema };
    request.routeSeen = seen;
  }
  return seen;
}
