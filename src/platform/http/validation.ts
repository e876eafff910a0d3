import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { FastifySchemaCompiler } from 'fastify';
import { isIdPattern } from '../kit/ids.ts';
import { holdsSecretPrefix } from '../kit/key-shapes.ts';
import { ApiError, type ErrorItem } from './errors.ts';
import { sentenceFor } from './validation-messages.ts';

/**
 * Two validators. Bodies are JSON, so a wrong type is an error, never coerced (Fastify's default would turn
 * `"country": 12` into "12"). Query strings and path parameters are text, so they are coerced. Neither removes
 * unknown fields (Fastify's default `removeAdditional` would drop them silently): they are refused.
 */
const common = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false, verbose: true } as const;
const bodyAjv = new Ajv2020({ ...common, coerceTypes: false });
const textAjv = new Ajv2020({ ...common, coerceTypes: true });
// Money and counters are 64-bit integers in the database; the document says so (`format: int64`), so that generated
// clients decode them as 64-bit. In JSON they stay exact up to 2^53 − 1.
for (const ajv of [bodyAjv, textAjv]) ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
// `x-no-secret`: a string that holds no key's or signing secret's prefix (metadata, docs/api.md#metadata-your-own-references).
for (const ajv of [bodyAjv, textAjv])
  ajv.addKeyword({
    keyword: 'x-no-secret',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (on: boolean, data: string) => !on || !holdsSecretPrefix(data),
  });

/**
 * A route schema without its ids' patterns. The document states the shape of every id a request names, but an id
 * is looked up, never refused for its shape: one of the wrong shape names nothing, and gets the answer of an id that
 * does not exist (docs/api.md#the-wire: 404 for a path id, after authentication; the service decides, see `IdOf`).
 */
function withoutIdPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutIdPatterns);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string' && isIdPattern(value)) continue;
    copy[key] = withoutIdPatterns(value);
  }
  return copy;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(withoutIdPatterns(schema) as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

function dotted(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.join('.');
}

/**
 * A `dependentSchemas` rule ("who sends this field sends that one too, so"): named by the field that brought it in,
 * with the rule's own description as the detail, whichever of its keywords the request broke.
 */
function dependentItem(error: ErrorObject): ErrorItem | null {
  const field = /\/dependentSchemas\/([^/]+)\//.exec(error.schemaPath)?.[1];
  if (field === undefined) return null;
  const object = error.keyword === 'required' ? error.instancePath : error.instancePath.replace(/\/[^/]*$/, '');
  const param = dotted(object, field.replace(/~1/g, '/').replace(/~0/g, '~'));
  const description = (error.parentSchema as { description?: string } | undefined)?.description;
  return { code: 'parameter_invalid', param, detail: description ?? `${param} needs other fields with it.` };
}

function item(error: ErrorObject): ErrorItem | null {
  const params = error.params as Record<string, unknown>;
  const dependent = dependentItem(error);
  if (dependent !== null) return dependent;
  if (error.keyword === 'required') {
    const param = dotted(error.instancePath, String(params.missingProperty));
    return { code: 'parameter_missing', param, detail: `${param} is required.` };
  }
  if (error.keyword === 'additionalProperties') {
    const param = dotted(error.instancePath, String(params.additionalProperty));
    return { code: 'parameter_unknown', param, detail: `${param} is not a parameter of this operation.` };
  }
  if (error.keyword === 'minProperties') {
    // An update of "one or more of these fields" sent none: name them, not the object's shape.
    const names = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const where = error.instancePath === '' ? 'The body' : dotted(error.instancePath);
    const detail = `${where} must give at least one of: ${names.join(', ')}.`;
    if (names.length > 0) return { code: 'parameter_missing', param: dotted(error.instancePath, names[0]), detail };
  }
  if (error.instancePath === '') return null; // the whole body: see toValidationError
  const param = dotted(error.instancePath);
  return { code: 'parameter_invalid', param, detail: sentenceFor(param, error) };
}

/** A query parameter as a client writes it: `created[gte]`, not `created.gte`. */
function asQueryParam(found: ErrorItem): ErrorItem {
  if (found.param === undefined || !found.param.includes('.')) return found;
  const [outer, ...rest] = found.param.split('.');
  const param = `${outer}[${rest.join('.')}]`;
  return { ...found, param, detail: found.detail.replaceAll(found.param, param) };
}

const isUnknown = (found: ErrorItem) => found.code === 'parameter_unknown';

/**
 * Ajv's errors as docs/api.md#errors states them: every offending input listed, unknown fields first, the first one
 * named.
 */
export function toValidationError(errors: ErrorObject[], context: string): ApiError {
  const items: ErrorItem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // A key that failed `propertyNames`: reported once, by the propertyNames error itself.
    if ((error as { propertyName?: string }).propertyName !== undefined) continue;
    const found = item(error);
    if (found === null) {
      if (context === 'body') return new ApiError('body_malformed', 'The body must be a JSON object.');
      continue;
    }
    const mapped = context === 'querystring' ? asQueryParam(found) : found;
    const key = `${mapped.code}:${mapped.param}`;
    if (!seen.has(key)) items.push(mapped);
    seen.add(key);
  }
  if (items.length === 0) return new ApiError('parameter_invalid', `The ${context} is invalid.`);
  // A field the operation does not define comes first (docs/api.md, wire basics), whatever order Ajv checked its
  // keywords in (`required` before `additionalProperties`): `{"country":"GB"}` sent to an update is a wrong field,
  // and "metadata is required" would send the client looking for the wrong fix.
  const ordered = [...items.filter(isUnknown), ...items.filter((found) => !isUnknown(found))];
  return ApiError.fromItems(ordered as [ErrorItem, ...ErrorItem[]]);
}
