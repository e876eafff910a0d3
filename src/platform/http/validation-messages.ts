import type { ErrorObject } from 'ajv/dist/2020.js';
import { holdsSecretPrefix, SECRET_PREFIXES } from '../kit/key-shapes.ts';
import { cleanTextRule, freeTextMaxOf } from '../kit/text.ts';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
};

const NOUNS: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a JSON array',
  null: 'null',
};

/** How a pattern that also takes "" begins (an update's "clear it"). */
const CLEARS = '^$|';

const NO_SECRET =
  `must not hold a key or a signing secret, nor the start of one (${SECRET_PREFIXES}): metadata is shown in every ` +
  'answer, event and list. Send your own reference instead (an order number, a customer id), and revoke the key if ' +
  'it was a real one.';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** ", such as <first example>" when the schema has one: showing a valid value is the clearest instruction. */
function suchAs(schema: Schema): string {
  const example = schema.examples?.find((e) => e !== null && typeof e !== 'object');
  return example === undefined ? '' : `, such as ${JSON.stringify(example)}`;
}

function oneOf(schema: Schema, param: string): string | null {
  if (schema.enum) return `${param} must be one of: ${schema.enum.join(', ')}.`;
  if (schema.const !== undefined) return `${param} must be ${JSON.stringify(schema.const)}.`;
  return null;
}

/**
 * One sentence per Ajv keyword our schemas can meet, saying what to send rather than how the validator failed.
 * Any keyword not listed gets a sentence that points to the schema's own description, never Ajv's wording.
 */
export function sentenceFor(param: string, error: ErrorObject): string {
  const schema = (error.parentSchema ?? {}) as Schema;
  const limit = (error.params as { limit?: number }).limit ?? 0;
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
      // json-body.ts makes a number written with a fraction or an exponent NaN: it was a number, not a whole one.
      if (types.includes('integer') && Number.isNaN(error.data))
        return `${param} must be a whole number written without a fraction or an exponent${suchAs(schema)}.`;
      return (
        oneOf(schema, param) ?? `${param} must be ${types.map((t) => NOUNS[t] ?? t).join(' or ')}${suchAs(schema)}.`
      );
    }
    case 'enum':
    case 'const':
      return oneOf(schema, param)!;
    case 'pattern':
    case 'format': {
      // Free text (see FreeText): the rule in words, as the services word it, not the pattern's example. An update
      // may also take "" (to clear the field): `^$|` before the free-text pattern.
      const clears = schema.pattern?.startsWith(CLEARS) === true;
      const free = clears ? schema.pattern!.slice(CLEARS.length) : schema.pattern;
      const max = error.keyword === 'pattern' ? freeTextMaxOf(free) : undefined;
      if (max !== undefined)
        return clears ? `${cleanTextRule(param, max)} Or "" to clear it.` : cleanTextRule(param, max);
      // Every example when a pattern takes several forms (`status`: `409` or `4xx`).
      const examples = (schema.examples ?? []).filter((e) => typeof e === 'string');
      return `${param} must look like ${examples.length === 0 ? 'the documented format' : examples.join(' or ')}.`;
    }
    case 'minLength':
      return `${param} must be at least ${plural(limit, 'character')} long.`;
    case 'maxLength':
      return `${param} must be at most ${plural(limit, 'character')} long.`;
    case 'minimum':
      return `${param} must be at least ${limit}.`;
    case 'maximum':
      return `${param} must be at most ${limit}.`;
    case 'minItems':
      return `${param} must list at least ${plural(limit, 'item')}.`;
    case 'maxItems':
      return `${param} must list at most ${plural(limit, 'item')}.`;
    case 'maxProperties':
      return `${param} must have at most ${plural(limit, 'key')}.`;
    case 'propertyNames': {
      const name = (error.params as { propertyName?: string }).propertyName ?? '';
      // Never echoed: it may be (part of) a key.
      if (holdsSecretPrefix(name)) return `${param} keys ${NO_SECRET}`;
      return `${param} keys must be 1–40 characters without [ or ]; ${JSON.stringify(name)} is not one.`;
    }
    case 'x-no-secret':
      return `${param} ${NO_SECRET}`;
    default:
      return `${param} is not a value this operation takes${schema.description ? `: ${schema.description}` : '.'}`;
  }
}
