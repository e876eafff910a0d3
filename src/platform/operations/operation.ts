import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { principalOf } from '../auth/auth.ts';
import { allows, describe, type Permission } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { answeredByDurableWrite } from '../http/durable-answers.ts';
import { ApiError } from '../http/errors.ts';
import type { WithIdempotency } from '../idempotency/idempotency.ts';
import type { WriteContext } from './context.ts';

/** A route's schema as an operation declares it: the OpenAPI operation and the validation of every part. */
export interface OperationSchema extends FastifySchema {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /**
   * How the client libraries name it (clients/README.md#how-the-clients-are-made): the resource (`transfers`; none
   * for a method of the client itself) and the method (`reverse`), in camelCase; each language's template recases.
   * Every operation a client exposes declares it; the generated client layers refuse a document without it.
   */
  'x-plinth-sdk'?: { resource?: string; method: string; secretFields?: string[] };
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: Record<number, TSchema>;
}

type StaticOf<T> = T extends TSchema ? Static<T> : undefined;

/** An operation's validated input, typed from its schema. */
export interface Input<S extends OperationSchema> {
  params: StaticOf<S['params']>;
  query: StaticOf<S['querystring']>;
  body: StaticOf<S['body']>;
}

interface Declared<S extends OperationSchema> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify's form: `/v1/fintech/transfers/:id/post`. */
  path: string;
  /** What a key must hold to call it (docs/api.md#restricted-keys). */
  permission: Permission;
  schema: S;
}

/** A read: no transaction; its answer is the value returned. */
export interface ReadOperation<S extends OperationSchema = OperationSchema, R = unknown> extends Declared<S> {
  kind: 'read';
  read(owner: Principal, input: Input<S>): Promise<R>;
}

/**
 * A write: one write transaction through the idempotency step (Idempotency-Key on a POST), its service given the
 * write's context. The dashboard's forms run the same declaration (dashboard/act.ts).
 */
export interface WriteOperation<S extends OperationSchema = OperationSchema, R = unknown> extends Declared<S> {
  kind: 'write';
  /** Checks that need the network (a webhook URL's resolution): run before the write, never inside it. */
  check?(owner: Principal, input: Input<S>): Promise<void>;
  write(ctx: WriteContext<Principal>, input: Input<S>): Promise<R>;
  /** Fields shown once and stored as null (docs/api.md#safe-retries-idempotency-key). */
  secretFields?: (keyof R & string)[];
  /** Runs once the write has settled, whatever its outcome (forget a revoked key's cache entry, wake a worker). */
  settled?(input: Input<S>): void;
}

/** A route that takes no key (the sandbox sign-up): it answers by itself, outside any principal's scope. */
export interface PublicOperation<S extends OperationSchema = OperationSchema, R = unknown> extends Declared<S> {
  kind: 'public';
  handle(request: FastifyRequest, input: Input<S>): Promise<R>;
}

/**
 * A read whose answer is a long-lived stream (`GET /v1/events/stream`): it sends on `reply` itself, after the same
 * authentication, permission check and validation as any read.
 */
export interface StreamOperation<S extends OperationSchema = OperationSchema> extends Declared<S> {
  kind: 'stream';
  open(owner: Principal, input: Input<S>, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

export type Operation = ReadOperation | WriteOperation | PublicOperation | StreamOperation;

// The declaring functions infer each operation's types from its schema; the lists they go in hold them untyped.
export const read = <S extends OperationSchema, R>(op: Omit<ReadOperation<S, R>, 'kind'>): Operation =>
  ({ ...op, kind: 'read' }) as never;
export const write = <S extends OperationSchema, R>(op: Omit<WriteOperation<S, R>, 'kind'>): Operation =>
  ({ ...op, kind: 'write' }) as never;
export const stream = <S extends OperationSchema>(op: Omit<StreamOperation<S>, 'kind'>): Operation =>
  ({ ...op, kind: 'stream' }) as never;
export const publicOperation = <S extends OperationSchema, R>(op: Omit<PublicOperation<S, R>, 'kind'>): Operation =>
  ({ ...op, kind: 'public' }) as never;

/** `POST /v1/fintech/transfers/{id}/post`: an operation as a person reads it. */
export const routeOf = (op: Operation) => `${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}`;

/**
 * The one check of a restricted key (docs/api.md#restricted-keys), for the API (before the body is even read, so a key
 * learns nothing from the validation of a route it may not call) and the dashboard alike. A full key passes at once.
 */
export function requirePermission(principal: Principal, op: Operation): void {
  const held = principal.permissions;
  if (held === null || op.permission === 'public' || allows(held, op.permission)) return;
  const { group, level } = op.permission;
  throw new ApiError(
    'permission_denied',
    `This key has ${describe(group, held[group])}; ${routeOf(op)} needs ${describe(group, level)}.`,
  );
}

const inputOf = (request: FastifyRequest): Input<OperationSchema> =>
  ({ params: request.params, query: request.query, body: request.body }) as never;

function handlerOf(op: Operation, withIdempotency: WithIdempotency | undefined) {
  switch (op.kind) {
    case 'read':
      return (request: FastifyRequest) => op.read(principalOf(request), inputOf(request));
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
          const answer = await withIdempotency(request, reply, (ctx) => op.write(ctx, input), {
            secretFields: op.secretFields as never,
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

/** Every operation declared so far, by operationId: what the dashboard's forms run, what the docs list. */
export type Operations = ReadonlyMap<string, Operation>;

declare module 'fastify' {
  interface FastifyInstance {
    operations: Map<string, Operation>;
  }
  interface FastifyContextConfig {
    /** The permission the route's operation needs (auth/permissions.ts). */
    permission?: Permission;
  }
}

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
      // After the app's authentication (its own onRequest hook runs first), before parsing and validation.
      ...(op.kind === 'public'
        ? {}
        : { onRequest: async (request: FastifyRequest) => requirePermission(principalOf(request), op) }),
      handler: handlerOf(op, deps.withIdempotency),
    });
  }
}
