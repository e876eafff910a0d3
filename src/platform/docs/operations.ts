import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { sendProblem } from '../http/problem.ts';

const Status = Type.Object(
  { status: Type.Literal('ok') },
  { additionalProperties: false, examples: [{ status: 'ok' }] },
);

/** The metrics token, when one is set, as `Authorization: Bearer <token>`; compared in constant time. */
function checkMetricsToken(request: FastifyRequest, token: string | null): void {
  if (token === null) return;
  const header = request.headers.authorization;
  const challenge = { headers: { 'www-authenticate': 'Bearer realm="plinth-metrics"' }, param: 'Authorization' };
  if (header === undefined)
    throw new ApiError('api_key_missing', 'Send `Authorization: Bearer <METRICS_TOKEN>`.', challenge);
  const sent = Buffer.from(header);
  const expected = Buffer.from(`Bearer ${token}`);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new ApiError(
      'api_key_invalid',
      'That is not the metrics token (`Authorization: Bearer <METRICS_TOKEN>`).',
      challenge,
    );
  }
}

/**
 * Every metric that can be read now. One whose collection fails (a gauge that queries the database, during an
 * outage) is left out of this scrape instead of failing all of it: the rest (the supervisor's workers, the process)
 * stay visible when they matter most, and the missing series says "unknown" rather than a stale value.
 */
async function exposition(registry: Registry): Promise<string> {
  const names = registry.getMetricsAsArray().map((metric) => metric.name);
  const parts = await Promise.all(names.map((name) => registry.getSingleMetricAsString(name).catch(() => null)));
  return `${parts.filter((part) => part !== null).join('\n\n')}\n`;
}

/** Operator routes, outside /v1 and without an API key. */
export function installOperations(
  app: FastifyInstance,
  database: Database,
  metrics: { registry: Registry; token: string | null },
): void {
  const common = { tags: ['Operations'], security: [] };
  app.get(
    '/healthz',
    {
      schema: {
        ...common,
        operationId: 'getHealth',
        summary: 'Liveness: 200 while the process runs',
        response: { 200: { ...Status, description: 'The process is running.' } },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        ...common,
        operationId: 'getReadiness',
        summary: 'Readiness: 200 only when the database answers',
        response: { 200: { ...Status, description: 'The database answers.' } },
      },
    },
    async (_request, reply) => {
      if (await database.ping()) return { status: 'ok' };
      return sendProblem(reply, new ApiError('service_unavailable', 'The database does not answer.'));
    },
  );
  app.get(
    '/metrics',
    {
      schema: {
        ...common,
        operationId: 'getMetrics',
        summary: 'Prometheus metrics of this process',
        description:
          'Requests, latency, database commit timings and group-commit batch sizes, process metrics. When the ' +
          'server has a `METRICS_TOKEN`, send it as `Authorization: Bearer <METRICS_TOKEN>`.',
        'x-problems': ['api_key_missing', 'api_key_invalid'],
        response: {
          200: {
            description: 'Prometheus text exposition format.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      checkMetricsToken(request, metrics.token);
      reply.type(metrics.registry.contentType);
      return exposition(metrics.registry);
    },
  );
}
