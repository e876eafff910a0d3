import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/auth.ts';
import { describe, type Permission } from '../auth/permissions.ts';
import { answeredByDurableWrite, answeredFromReads } from '../http/durable-answers.ts';
import type { WithIdempotency } from '../idempotency/idempotency.ts';
import { type Input, type Operation, type OperationSchema, requirePermission } from './operation.ts';

/**
 * Declared operations become routes here: each one's handler (its kind's: a read, a write through the idempotency
 * step, a stream, a public route), its permission checked before the body is read, and its schema as the document
 * shows it.
 */

/** What Fastify validated against the operation's schema (validation runs before any handler). */
const inputOf = (request: FastifyRequest): Input<OperationSchema> => ({
  params: request.params,
  query: request.query,
  body: request.body,
});

function handlerOf(op: Operation, withIdempotency: WithIdempotency | undefined) {
  switch (op.kind) {
    case 'read':
      return (request: FastifyRequest) => {
        answeredFromReads(request);
        return op.read(principalOf(request), inputOf(request));
      };
    case 'public':
      return (request: FastifyRequest) => op.handle(request, inputOf(request));
    case 'stream':
      return (request: FastifyRequest, reply: FastifyReply) =>
        op.open(principalOf(request), inputOf(request), request, reply);
    case 'write':
      if (withIdempotency === undefined)
        throw new Error(`${op.schema.operationId}: a write needs the idempotency step`);
      return async (request: FastifyRequest, reply: FastifyReply) => {
        const input = inputOf(request);
        try {
          await op.check?.(principalOf(request), input);
          const after = op.after;
          const answer = await withIdempotency(request, reply, (ctx) => op.write(ctx, input), {
            secretFields: op.secretFields,
            after: after && (() => after(principalOf(request), input)),
          });
          answeredByDurableWrite(request);
          return answer;
        } finally {
          op.settled?.(input);
        }
      };
  }
}

/** The schema as the document shows it: the permission stated as `x-permission` and in a line of the description. */
function documented(op: Operation): OperationSchema {
  const schema = withSecretFields(op);
  if (op.permission === 'public') return schema;
  const { group, level } = op.permission;
  const line = `Needs \`${describe(group, level)}\` (a restricted key without it gets 403 \`permission_denied\`).`;
  const description = schema.description === undefined ? line : `${schema.description}\n\n${line}`;
  return { ...schema, description, 'x-permission': { group, level } };
}

/** The clients' naming, with the fields shown once (`secretFields`): each client types them as never missing. */
function withSecretFields(op: Operation): OperationSchema {
  const sdk = op.schema['x-plinth-sdk'];
  if (!sdk || op.kind !== 'write' || !op.secretFields?.length) return op.schema;
  return { ...op.schema, 'x-plinth-sdk': { ...sdk, secretFields: [...op.secretFields] } };
}

declare module 'fastify' {
  interface FastifyInstance {
    operations: Map<string, Operation>;
  }
  interface FastifyContextConfig {
    /** The permission the route's operation needs (auth/permissions.ts). */
    permission?: Permission;
  }
}

const asStored = (data: unknown): string => JSON.stringify(data);

/** Registers operations as routes of `app` (which must be the root instance) and in its `app.operations`. */
export function declareOperations(
  app: FastifyInstance,
  deps: { withIdempotency?: WithIdempotency },
  operations: Operation[],
): void {
  if (!app.hasDecorator('operations')) app.decorate('operations', new Map<string, Operation>());
  for (const op of operations) {
    const id = op.schema.operationId;
    if (app.operations.has(id)) throw new Error(`operation ${id} declared twice`);
    app.operations.set(id, op);
    app.route({
      method: op.method,
      url: op.path,
      schema: documented(op),
      config: { permission: op.permission, ...(op.kind === 'public' ? { public: true } : {}) },
      // After the app's authentication (its own onRequest hook runs first), before parsing and validation. A callback
      // hook: the check is synchronous, and an async hook cost every request a promise.
      ...(op.kind === 'public'
        ? {}
        : {
            onRequest: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
              requirePermission(principalOf(request), op);
              done();
            },
          }),
      ...(op.kind === 'read' && op.asStored ? { serializerCompiler: () => asStored } : {}),
      handler: handlerOf(op, deps.withIdempotency),
    });
  }
}
