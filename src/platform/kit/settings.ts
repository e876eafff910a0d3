import { type TObject, type TSchema, type TUnsafe, Type } from 'typebox';
import { StringEnum } from './schema.ts';

/**
 * Settings are environment variables described by one TypeBox object schema: the property name is the variable,
 * the property schema its type, bounds, default and description. `parseSettings` turns the environment into typed
 * values with one-line errors; the README's configuration table is checked against the same schema by a test.
 */
export type Env = Record<string, string | undefined>;

/** A bad setting: the message is one line naming the variable and what is wrong with it. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Turns a setting's text into its value; throws a plain Error whose message says what is wrong. */
export type Parser<T> = (raw: string, context: { env: Env; cwd: string }) => T;

export const integer = (fallback: number, minimum: number, maximum: number, description: string) =>
  Type.Integer({ default: fallback, minimum, maximum, description });

export const flag = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, description });

/** One of `values`. The description ends with the list of them, so the README row (tested against it) shows them. */
export const choice = <const T extends readonly string[]>(values: T, fallback: T[number], description: string) =>
  StringEnum(values, { default: fallback, description: `${description}: ${oneOf(values)}` });

/** `a`, `b` or `c` */
function oneOf(values: readonly string[]): string {
  const quoted = values.map((v) => `\`${v}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** Free text, or anything that needs its own parser (a URL, a list, a duration): documented as a string. */
export function text<T = string>(fallback: string, description: string, parse?: Parser<T>): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', default: fallback, description, 'x-parse': parse });
}

/** The default as a person would type it in the environment (and as the README shows it). */
export function defaultText(schema: TSchema): string {
  const value = (schema as { default?: unknown }).default;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value ?? '');
}

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema read by keyword
function parseOne(schema: Record<string, any>, raw: string, context: { env: Env; cwd: string }): unknown {
  if (typeof schema['x-parse'] === 'function') return (schema['x-parse'] as Parser<unknown>)(raw, context);
  if (schema.type === 'integer') {
    const { minimum, maximum } = schema as { minimum: number; maximum: number };
    if (!/^\d+$/.test(raw) || Number(raw) < minimum || Number(raw) > maximum) {
      throw new Error(`must be a whole number from ${minimum} to ${maximum}, got ${JSON.stringify(raw)}`);
    }
    return Number(raw);
  }
  if (schema.type === 'boolean') {
    const lower = raw.toLowerCase();
    if (['on', 'true', '1'].includes(lower)) return true;
    if (['off', 'false', '0'].includes(lower)) return false;
    throw new Error(`must be on or off, got ${JSON.stringify(raw)}`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(raw)) {
    throw new Error(`must be one of ${schema.enum.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** Every setting of `schema` from `env` (an unset or empty variable takes its default), in the schema's order. */
export function parseSettings<T>(schema: TObject, env: Env, cwd: string): T {
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const given = env[name];
    const raw = given === undefined || given === '' ? defaultText(property) : given;
    try {
      values[name] = parseOne(property as Record<string, unknown>, raw, { env, cwd });
    } catch (error) {
      throw new ConfigError(name, (error as Error).message);
    }
  }
  return values as T;
}
