import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import type { Trx } from '../db/database.ts';
import type { EventRequest } from '../platform/events/emit.ts';
import { ApiError, type ErrorItem } from '../platform/http/errors.ts';
import { toValidationError, validatorCompiler } from '../platform/http/validation.ts';
import type { IdempotentWrite } from '../platform/idempotency/idempotency.ts';
import { checkedKey, fingerprint } from '../platform/idempotency/key.ts';
import type { Principal } from '../platform/keys/principal.ts';

/**
 * One dashboard action, as the API request it stands for: the same body, validated by the operation's own schema
 * with the API's validator; the same service, run in the same idempotency step under the form's Idempotency-Key
 * (scope, fingerprint and stored answer as if the API had been called with that key); the same errors.
 */
export interface Action<T> {
  /** The API operation's path, e.g. `/v1/fintech/accounts/acct_…/freeze` (POST): the fingerprint's path. */
  path: string;
  /** The JSON body the API would receive. */
  body: Record<string, unknown>;
  /** The operation's body schema (its route's `schema.body`). */
  schema: TSchema;
  /** Checks that need the network (a webhook URL's resolution), run before the write as the API runs them. */
  before?: () => Promise<void>;
  run: (trx: Trx, request: EventRequest) => Promise<T>;
  /** Fields shown once, stored as null (CONTRACT §5). */
  secretFields?: (keyof T & string)[];
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

export function actor(write: IdempotentWrite) {
  return async function perform<T>(
    request: FastifyRequest,
    principal: Principal,
    formKey: string | undefined,
    action: Action<T>,
  ): Promise<Done<T>> {
    if (formKey !== undefined) checkedKey(formKey);
    validateBody(action.schema, action.body);
    await action.before?.();
    const requestId = String(request.id);
    const keyed =
      formKey === undefined
        ? undefined
        : {
            scope: { orgId: principal.orgId, mode: principal.mode, key: formKey },
            fingerprint: fingerprint('POST', action.path, action.body),
          };
    const eventRequest = { id: requestId, idempotency_key: formKey ?? null };
    const answer = await write({ keyed, requestId }, (trx) => action.run(trx, eventRequest), JSON.stringify, {
      secretFields: action.secretFields,
    });
    if (!answer.replayed) return { value: JSON.parse(answer.body) as T, replayed: false };
    if (answer.stored.status >= 400) throw problemOf(answer.stored.body);
    return { value: JSON.parse(answer.stored.body) as T, replayed: true };
  };
}

export type Perform = ReturnType<typeof actor>;
