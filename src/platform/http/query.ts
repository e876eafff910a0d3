import type { FastifyInstance } from 'fastify';
import { ApiError, type ErrorItem } from './errors.ts';
import { routeOf } from './route-of.ts';

type Property = { type?: string; properties?: Record<string, unknown> };
type QuerySchema = { properties?: Record<string, Property> } | undefined;

/**
 * What is wrong with a `name[key]=value` group (an object parameter, parsed by query-parser.ts), or null: each key
 * once, and one of the keys it defines when it names them (`created[gte]`); any key when it does not (`metadata[…]`).
 */
function groupProblem(name: string, value: unknown, property: Property): ErrorItem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { code: 'parameter_invalid', param: name, detail: `Send ${name} as ${name}[key]=value, once each.` };
  for (const [key, each] of Object.entries(value)) {
    const param = `${name}[${key}]`;
    if (property.properties !== undefined && !Object.hasOwn(property.properties, key)) {
      const known = Object.keys(property.properties).map((k) => `${name}[${k}]`);
      return {
        code: 'parameter_unknown',
        param,
        detail: `${param} is not a parameter of this operation. It takes ${known.join(', ')}.`,
      };
    }
    if (Array.isArray(each)) return { code: 'parameter_invalid', param, detail: `Send ${param} once, not twice.` };
  }
  return null;
}

/** What is wrong with one query parameter, or null when nothing is. */
function queryProblem(name: string, value: unknown, defined: Record<string, Property>): ErrorItem | null {
  const property = Object.hasOwn(defined, name) ? defined[name] : undefined;
  if (property === undefined) {
    const known = Object.keys(defined);
    const hint = known.length === 0 ? 'This operation takes no query parameters.' : `It takes ${known.join(', ')}.`;
    return { code: 'parameter_unknown', param: name, detail: `${name} is not a parameter of this operation. ${hint}` };
  }
  if (property.type === 'object') return groupProblem(name, value, property);
  if (Array.isArray(value)) return { code: 'parameter_invalid', param: name, detail: `Send ${name} once, not twice.` };
  if (typeof value === 'object' && value !== null)
    return { code: 'parameter_unknown', param: name, detail: `${name} takes one value: ${name}=…, not ${name}[…].` };
  // Ajv's coercion would read `0x10`, `+5`, `5.0`, `1e1` and ` 5` as numbers; docs/api.md#the-wire allows only digits.
  if (property.type === 'integer' && !/^[0-9]{1,15}$/.test(String(value)))
    return { code: 'parameter_invalid', param: name, detail: `${name} must be a whole number in digits, such as 10.` };
  return null;
}

/**
 * docs/api.md#the-wire: every route refuses query parameters it does not define (its `querystring` schema, or none at
 * all), a parameter given twice, and integers written other than as plain digits. Runs after authentication,
 * before schema validation, so that a POST with `?anything` is refused before it can create something.
 */
export function installStrictQuery(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.is404) return done();
    const defined = (routeOf(request).schema?.querystring as QuerySchema)?.properties ?? {};
    const problems: ErrorItem[] = [];
    for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
      const problem = queryProblem(name, value, defined);
      if (problem !== null) problems.push(problem);
    }
    if (problems.length > 0) throw ApiError.fromItems(problems as [ErrorItem, ...ErrorItem[]]);
    done();
  });
}
