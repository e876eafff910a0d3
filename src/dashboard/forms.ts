import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMIT } from '../platform/http/body.ts';
import { ApiError } from '../platform/http/errors.ts';
import type { OperationSchema } from '../platform/operations/operation.ts';
import type { Action } from './act.ts';
import type { Ctx, FormSubmit } from './context.ts';
import { exponentOf, parseMajorUnits } from './format.ts';
import { Html } from './html.ts';
import { answerOf } from './record.ts';
import { inFormUnit, typedIn } from './units.ts';

/** HTML forms post `application/x-www-form-urlencoded`; in this scope only (the API takes JSON only). */
export function installForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
}

export function fieldsOf(request: FastifyRequest): URLSearchParams {
  return request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
}

/** A field as typed, or undefined when it is absent or blank (an optional field left empty). */
export function optional(fields: URLSearchParams, name: string): string | undefined {
  const value = fields.get(name);
  return value === null || value.trim() === '' ? undefined : value;
}

/**
 * Fields never shown again: the hidden ones, and secrets (an EIN, a bank account number: typed again rather than
 * echoed into a page).
 */
const NOT_ECHOED = new Set(['csrf', 'idempotency_key', 'kyb.ein', 'key', 'account_number']);

/** What the form had in it, to show again beside its problem. */
function typed(fields: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of fields) if (!NOT_ECHOED.has(name)) values[name] = value;
  return values;
}

/**
 * Metadata typed as lines of `key=value` (blank lines skipped), as the object the API takes; undefined when the field
 * is empty. The API's schema then checks the keys and values.
 */
export function metadataField(fields: URLSearchParams, name: string): Record<string, string> | undefined {
  const text = fields.get(name) ?? '';
  const metadata = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    if (at < 1)
      throw new ApiError(
        'parameter_invalid',
        `${name} takes one key=value a line; “${line.slice(0, 40)}” has no key.`,
        {
          param: name,
        },
      );
    const key = line.slice(0, at).trim();
    // The API's JSON parser refuses these keys in any body (docs/api.md#the-wire); so does this field.
    if (key === '__proto__' || key === 'constructor')
      throw new ApiError('parameter_invalid', `${name} cannot use the key ${key}.`, { param: name });
    metadata.set(key, line.slice(at + 1).trim());
  }
  return metadata.size === 0 ? undefined : Object.fromEntries(metadata);
}

/** A major-unit amount field as minor units, refused (beside the field) when it is not one. */
export function amountField(fields: URLSearchParams, name: string, currency: string): number | string {
  const raw = fields.get(name) ?? '';
  typedIn(fields, currency);
  const minor = parseMajorUnits(raw, currency);
  if (minor !== null) return minor;
  if (raw.trim() === '') throw new ApiError('parameter_missing', `${name} is required.`, { param: name });
  const exponent = exponentOf(currency);
  const example = exponent === 0 ? '12' : `12.${'5'.padEnd(exponent, '0')}`;
  throw new ApiError(
    'parameter_invalid',
    `${name} must be an amount in ${currency} such as ${example}, with at most ${exponent} decimals.`,
    { param: name },
  );
}

export const sendHtml = (reply: FastifyReply, page: Html, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(page.text);

/**
 * A form's round trip: build the API action from the fields, perform it, then answer with `done` (a path to
 * redirect to with 303, or a page, for an answer that shows a secret once) or, when the API refuses it (any
 * ApiError below 500: validation, a refusal of the service, the rate limit), the form's page again with the
 * problem. The status is the problem's.
 */
export function submitter(ctx: Ctx) {
  return async <S extends OperationSchema>(
    request: FastifyRequest,
    reply: FastifyReply,
    form: FormSubmit<S>,
  ): Promise<FastifyReply> => {
    const fields = fieldsOf(request);
    const principal = request.principal!; // the session's key, verified by the gate for this request
    const idempotencyKey = optional(fields, 'idempotency_key') ?? null;
    let body: Record<string, unknown> | null = null;
    let action: Action<S> | undefined;
    try {
      action = await form.build(fields, principal);
      body = action.body;
      const done = await ctx.perform(request, principal, idempotencyKey ?? undefined, action);
      const logged = answerOf(request, action, done.value);
      request.dashboardAction = {
        status: 200,
        errorCode: null,
        body,
        idempotencyKey,
        replayed: done.replayed,
        ...logged,
      };
      const answer = form.done(done, await ctx.view(request));
      if (answer instanceof Html) return sendHtml(reply, answer);
      return reply.redirect(answer, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      reply.headers(error.headers);
      const logged = answerOf(request, action, error);
      request.dashboardAction = { status: error.status, errorCode: error.code, body, idempotencyKey, ...logged };
      const view = await ctx.view(request);
      // A key without the action's permission (docs/api.md#restricted-keys) has nothing to correct in a form its
      // page does not even show: the refusal page says what the key has and what the action needs.
      if (action !== undefined && !view.can(action.operation)) throw error;
      // Said in the form's unit: the API's minor units become the major unit the form was typed in.
      const shown = inFormUnit(error, fields);
      const state = { form: form.name, values: typed(fields), error: shown, requestId: String(request.id) };
      return sendHtml(reply, await form.again(view, state), error.status);
    }
  };
}
