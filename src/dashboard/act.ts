import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import type { Principal } from '../platform/auth/principal.ts';
import { ApiError, type ErrorItem } from '../platform/http/errors.ts';
import { toValidationError, validatorCompiler } from '../platform/http/validation.ts';
import { type IdempotentWrite, scopeOf } from '../platform/idempotency/idempotency.ts';
import { checkedKey, fingerprint } from '../platform/idempotency/key.ts';
import {
  type Input,
  type Operation,
  type OperationRef,
  type OperationSchema,
  type Operations,
  type ReadDeclaration,
  type Result,
  requirePermission,
  type WriteDeclaration,
} from '../platform/operations/operation.ts';

/**
 * One dashboard action, as the API request it stands for: a declared operation (operations/operation.ts) and the
 * input the API would receive. Its body is validated by the operation's own schema with the API's validator; its
 * network checks, its write and what runs after it are the operation's own, run in the same idempotency step under
 * the form's Idempotency-Key (scope, fingerprint and stored answer as if the API had been called with that key).
 */
// biome-ignore lint/suspicious/noExplicitAny: an action of any operation, where its schema does not matter
export interface Action<S extends OperationSchema = any> {
  /** The declared operation, e.g. `ops.createTransfer` (src/ops.ts). */
  operation: WriteDeclaration<S>;
  /** Its path parameters, e.g. `{ id: 'acct_…' }`. */
  params?: Record<string, string>;
  /** The JSON body the API would receive. */
  body: Record<string, unknown>;
}

export interface Done<T> {
  value: T;
  /** The form had been submitted already: this is the stored answer (its secrets null). */
  replayed: boolean;
}

const validators = new WeakMap<TSchema, ReturnType<FastifySchemaCompiler<unknown>>>();

/** Validates `body` exactly as the API's route validates its JSON body. */
export function validateBody(schema: TSchema, body: unknown): void {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = validatorCompiler({ schema, method: 'POST', url: '', httpPart: 'body' });
    validators.set(schema, validate);
  }
  const ok = validate(body) as boolean;
  if (!ok) throw toValidationError((validate as unknown as { errors: never[] }).errors ?? [], 'body');
}

/** A stored refusal, replayed: the problem it was, as an ApiError to show again. */
function problemOf(body: string): ApiError {
  const problem = JSON.parse(body) as { code: never; detail: string; param?: string; errors?: ErrorItem[] };
  return new ApiError(problem.code, problem.detail, { param: problem.param, errors: problem.errors });
}

/** The registered operation a declaration stands for (its implementation, bound to its module's deps). */
export function operationOf<K extends Operation['kind']>(operations: Operations, declared: OperationRef<K>) {
  const op = operations.get(declared.schema.operationId);
  if (op?.kind !== declared.kind) throw new Error(`dashboard: ${declared.schema.operationId} is not registered`);
  return op as Extract<Operation, { kind: K }>;
}

/** The API path an operation's path parameters make (`/v1/fintech/accounts/:id/freeze` → `…/acct_…/freeze`). */
export const pathOf = (path: string, params: Record<string, string> = {}) =>
  path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');

export function actor(write: IdempotentWrite, operations: Operations) {
  return async function perform<S extends OperationSchema>(
    request: FastifyRequest,
    principal: Principal,
    formKey: string | undefined,
    action: Action<S>,
  ): Promise<Done<Result<S>>> {
    const op = operationOf(operations, action.operation);
    requirePermission(principal, op);
    if (formKey !== undefined) checkedKey(formKey);
    if (op.schema.body !== undefined) validateBody(op.schema.body, action.body);
    const input: Input<OperationSchema> = { params: action.params ?? {}, query: {}, body: action.body };
    try {
      await op.check?.(principal, input);
      const keyed =
        formKey === undefined
          ? undefined
          : {
              scope: scopeOf(principal, formKey),
              fingerprint: fingerprint(op.method, pathOf(op.path, action.params), action.body),
            };
      const call = { keyed, owner: principal, request: { id: String(request.id), idempotency_key: formKey ?? null } };
      const answer = await write(call, (ctx) => op.write(ctx, input), JSON.stringify, {
        secretFields: op.secretFields,
      });
      await op.after?.(principal, input);
      // The answer as the API would have sent it: its operation's response (validated there, parsed here).
      if (!answer.replayed) return { value: JSON.parse(answer.body), replayed: false };
      if (answer.stored.status >= 400) throw problemOf(answer.stored.body);
      return { value: JSON.parse(answer.stored.body), replayed: true };
    } finally {
      op.settled?.(input);
    }
  };
}

export type Perform = ReturnType<typeof actor>;

/** Reads through the API's declared operations, as the session's principal: the input and the answer typed. */
export function reader(operations: Operations) {
  return async <S extends OperationSchema>(
    principal: Principal,
    declared: ReadDeclaration<S>,
    input: { params?: Input<S>['params']; query?: Input<S>['query'] },
  ): Promise<Result<S>> => {
    const op = operationOf(operations, declared);
    requirePermission(principal, op);
    // The registered implementation of this very declaration: its answer is the declaration's Result.
    return (await op.read(principal, {
      params: input.params ?? {},
      query: input.query ?? {},
      body: undefined,
    })) as Result<S>;
  };
}
