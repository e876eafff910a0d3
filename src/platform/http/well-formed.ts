import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Every string the API takes is well-formed Unicode (docs/api.md, the wire): a lone UTF-16 surrogate, which JSON
 * can carry as `"\ud800"`, is refused wherever it is, in a value or a key, at any depth, in the body, the query
 * string or the path, with 400 `parameter_invalid` naming the field. Nothing can keep one as sent: PostgreSQL
 * refuses it in JSON (a 500 before this rule), and text holding one reads back with U+FFFD in its place, so that
 * what was stored differs from what the answer said. This is the one place the rule is applied.
 */
export function installWellFormedText(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const problem = illFormedInput(request);
    if (problem !== null) throw problem;
    done();
  });
}

export function illFormedInput(request: FastifyRequest): ApiError | null {
  const body = firstIllFormed(request.body);
  if (body !== null) return refusal(body.join('.'));
  for (const part of [request.query, request.params]) {
    const found = firstIllFormed(part);
    if (found === null) continue;
    const [name, ...inner] = found;
    return refusal(inner.length === 0 ? name! : `${name}[${inner.join('.')}]`);
  }
  return null;
}

function refusal(param: string): ApiError {
  // The name as the client wrote it, but for the surrogate itself: no answer or log line carries one either.
  const named = param.toWellFormed();
  return new ApiError(
    'parameter_invalid',
    `${named} must be well-formed Unicode text: it holds a lone UTF-16 surrogate (such as \\ud800 without its pair).`,
    { param: named },
  );
}

/**
 * The path to the first string, key or value, that is not well-formed (a key that is not names itself), or null.
 * The path is made only for a string found: a well-formed input costs one walk and no allocation.
 */
export function firstIllFormed(value: unknown): string[] | null {
  if (typeof value === 'string') return value.isWellFormed() ? null : [];
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstIllFormed(value[i]);
      if (found !== null) return [String(i), ...found];
    }
    return null;
  }
  // Own keys, not `for…in`: its keyed read deoptimized this function on every request, in a loop (V8 recompiled it
  // again and again; bench/FINDINGS.md, 2026-11-26). A parsed body, query or path has no inherited keys to miss.
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!key.isWellFormed()) return [key];
    const found = firstIllFormed((value as Record<string, unknown>)[key]);
    if (found !== null) return [key, ...found];
  }
  return null;
}
