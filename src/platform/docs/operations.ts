import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { sendProblem } from '../http/problem.ts';

const Status = Type.Object(
  { status: Type.Literal('ok') },
  { additionalProperties: false, examples: [{ status: 'ok' }] },
);

/** Operator routes, outside /v1 and without authentication. */
export function installOperations(app: FastifyInstance, database: Database): void {
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
}
