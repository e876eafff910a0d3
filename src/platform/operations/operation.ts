import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { allows, describe, type Permission } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { ApiError } from '../http/errors.ts';
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

/** What an operation answers: its 200 response, typed from its schema (the service's result is checked against it). */
export type Result<S extends OperationSchema> = StaticOf<S['response'][200]>;

/**
 * What an operation is, apart from what runs it: its route, its permission and its schema. Declared at module scope
 * (`export const retrieveTransfer = declareRead({ … })`), so that the dashboard and the CLI can name it as a typed
 * value (`ctx.read(ops.retrieveTransfer, { params: { id } })`, input and result inferred); its module's routes then
 * `implement` it with the service call.
 */
interface Declared<K extends string, S extends OperationSchema> {
  kind: K;
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify's form: `/v1/fintech/transfers/:id/post`. */
  path: string;
  /** What a key must hold to call it (docs/api.md#restricted-keys). */
  permission: Permission;
  schema: S;
}

export type ReadDeclaration<S extends OperationSchema = OperationSchema> = Declared<'read', S> & {
  /**
   * Its answer holds JSON stored as bytes that must reach the client unchanged (an event's body, which its hash and
   * its webhooks' signatures cover): serialized with `JSON.stringify`, which gives back exactly the bytes it parsed
   * from, instead of the schema's serializer, which orders and escapes keys in its own way.
   */
  asStored?: true;
};
export type WriteDeclaration<S extends OperationSchema = OperationSchema> = Declared<'write', S> & {
  /** Fields shown once and stored as null (docs/api.md#safe-retries-idempotency-key). */
  secretFields?: SecretFields<S>;
};
/** Fields of the answer; any field name where the schema is not known (`0 extends 1 & S`: S is `any`). */
type SecretFields<S extends OperationSchema> = 0 extends 1 & S ? string[] : (keyof Result<S> & string)[];
/** A route that takes no key (the sandbox sign-up): it answers by itself, outside any principal's scope. */
export type PublicDeclaration<S extends OperationSchema = OperationSchema> = Declared<'public', S>;
/**
 * A read whose answer is a long-lived stream (`GET /v1/events/stream`): it sends on `reply` itself, after the same
 * authentication, permission check and validation as any read.
 */
export type StreamDeclaration<S extends OperationSchema = OperationSchema> = Declared<'stream', S>;
export type Declaration =
  | ReadDeclaration<AnySchema>
  | WriteDeclaration<AnySchema>
  | PublicDeclaration<AnySchema>
  | StreamDeclaration<AnySchema>;

// biome-ignore lint/suspicious/noExplicitAny: lists of operations of different schemas; each is typed where declared
type AnySchema = any;

type Shape<D> = Omit<D, 'kind'>;

/** A write of any schema, for the places that only name one (a confirmation page's action). */
export type AnyWriteDeclaration = WriteDeclaration<AnySchema>;

/** What names an operation, whatever its schema: a declaration (`ops.createTransfer`) or the operation itself. */
export interface OperationRef<K extends Declaration['kind'] = Declaration['kind']> {
  kind: K;
  schema: { operationId: string };
}
export const declareRead = <S extends OperationSchema>(d: Shape<ReadDeclaration<S>>): ReadDeclaration<S> => ({
  ...d,
  kind: 'read',
});
export const declareWrite = <S extends OperationSchema>(d: Shape<WriteDeclaration<S>>): WriteDeclaration<S> => ({
  ...d,
  kind: 'write',
});
export const declarePublic = <S extends OperationSchema>(d: Shape<PublicDeclaration<S>>): PublicDeclaration<S> => ({
  ...d,
  kind: 'public',
});
export const declareStream = <S extends OperationSchema>(d: Shape<StreamDeclaration<S>>): StreamDeclaration<S> => ({
  ...d,
  kind: 'stream',
});

/** A read: no transaction; its answer is the value returned. */
export interface ReadOperation<S extends OperationSchema = OperationSchema> extends ReadDeclaration<S> {
  read(owner: Principal, input: Input<S>): Promise<Result<S>>;
}

/**
 * A write: one write transaction through the idempotency step (Idempotency-Key on a POST), its service given the
 * write's context. The dashboard's forms run the same operation (dashboard/act.ts).
 */
export interface WriteOperation<S extends OperationSchema = OperationSchema> extends WriteDeclaration<S> {
  /** Checks that need the network (a webhook URL's resolution): run before the write, never inside it. */
  check?(owner: Principal, input: Input<S>): Promise<void>;
  write(ctx: WriteContext<Principal>, input: Input<S>): Promise<Result<S>>;
  /**
   * Work that follows the committed write in writes of its own, awaited before the answer, whether the answer ran or
   * was replayed (a sandbox clock's due work: clock/due.ts). It must be safe to run again.
   */
  after?(owner: Principal, input: Input<S>): Promise<void>;
  /** Runs once the write has settled, whatever its outcome (forget a revoked key's cache entry, wake a worker). */
  settled?(input: Input<S>): void;
}

export interface PublicOperation<S extends OperationSchema = OperationSchema> extends PublicDeclaration<S> {
  handle(request: FastifyRequest, input: Input<S>): Promise<Result<S>>;
}

export interface StreamOperation<S extends OperationSchema = OperationSchema> extends StreamDeclaration<S> {
  open(owner: Principal, input: Input<S>, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/**
 * Any operation, whatever its schema: what a module's list of routes holds. (Each member's functions take its own
 * input, so a list of them is typed by the widest schema; `declareOperations` hands each the input its own schema
 * validated.)
 */
export type Operation =
  | ReadOperation<AnySchema>
  | WriteOperation<AnySchema>
  | PublicOperation<AnySchema>
  | StreamOperation<AnySchema>;

/** A declared operation with what runs it, as its module's routes bind it to their dependencies. */
export function implement<S extends OperationSchema>(
  declaration: ReadDeclaration<S>,
  implementation: { read(owner: Principal, input: Input<NoInfer<S>>): Promise<Result<NoInfer<S>>> },
): Operation;
export function implement<S extends OperationSchema>(
  declaration: WriteDeclaration<S>,
  implementation: {
    check?(owner: Principal, input: Input<NoInfer<S>>): Promise<void>;
    write(ctx: WriteContext<Principal>, input: Input<NoInfer<S>>): Promise<Result<NoInfer<S>>>;
    after?(owner: Principal, input: Input<NoInfer<S>>): Promise<void>;
    settled?(input: Input<NoInfer<S>>): void;
  },
): Operation;
export function implement<S extends OperationSchema>(
  declaration: PublicDeclaration<S>,
  implementation: { handle(request: FastifyRequest, input: Input<NoInfer<S>>): Promise<Result<NoInfer<S>>> },
): Operation;
export function implement<S extends OperationSchema>(
  declaration: StreamDeclaration<S>,
  implementation: {
    open(
      owner: Principal,
      input: Input<NoInfer<S>>,
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<FastifyReply>;
  },
): Operation;
export function implement(declaration: Declaration, implementation: object): Operation {
  return { ...declaration, ...implementation } as Operation;
}

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

/** Every operation declared so far, by operationId: what the dashboard's forms run, what the docs list. */
export type Operations = ReadonlyMap<string, Operation>;
