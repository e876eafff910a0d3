/**
 * The SDK view of the API description: what client generators are fed instead of openapi/openapi.json.
 *
 * The server's document is strict on purpose (closed enums, `additionalProperties: false`, patterns on ids): it is
 * what the server promises and what its tests check responses against. A client generated from it literally would
 * turn each of those promises into a check that breaks the day the server grows (a new field, a new enum value, a
 * new error code), which is exactly what clients/README.md#what-every-client-does says a client must survive. So this script derives, never by
 * hand, a looser copy for generators:
 *
 *   1. operations that return no JSON (the HTML reference, its script, the error catalogue page) are left out:
 *      they are for browsers, and an SDK method returning a string of HTML is noise;
 *   2. an optional request body that can only be `{}` (revoking a key) is dropped: generators make a free-form map
 *      parameter of an object without properties, or drop it but keep its clashing name;
 *   3. inline object schemas (request bodies, `kyb`, `available_balance`, `errors[]` items, …) become named
 *      components (`CreateAccountRequest`, `AccountKyb`, `ProblemErrorsItem`), so every generator in every language
 *      gives them the same, stable name instead of its own invention (`InlineObject1`, `AccountKybOneOf`, …);
 *   3a. a property that is one of several object shapes (`anyOf` of inline objects: a payment rule's `action`,
 *      `{return, at}` or `{reject}`) becomes one object with every property of every shape, none required, before
 *      it is named (`CreatePaymentRuleRequestAction`): Kotlin's and Rust's generators merge such a union into one
 *      class whose fields are all required, which no request of either shape satisfies (the server refuses the
 *      other shape's field), and the others name the shapes `…AnyOf0`; the description says which go together, and
 *      the server answers a wrong mix with 400;
 *   4. a nullable inline object (`type: ["object", "null"]`) becomes `anyOf: [$ref, {type: "null"}]`, the shape
 *      3.1-aware generators recognise as "nullable reference"; the 3.0.3 copy turns it into
 *      `allOf: [$ref]` + `nullable: true`, the shape 3.0 generators recognise;
 *   5. in every schema a response can reach (and in response headers):
 *      - `additionalProperties: false` is removed (Go, Java and Python models otherwise refuse unknown fields),
 *      - every enum (and `const`) is opened into a plain string whose known values are listed in the description and
 *        in `x-enum-values` (generated enum types otherwise throw on a value they do not know; this covers
 *        `Problem.code`, `errors[].code`, `status`, `mode`, even `object`),
 *      - `pattern` is dropped (a client must not reject an id or timestamp the server chose to format differently);
 *      request-only schemas keep all three: there they help the caller and cost nothing when the server grows;
 *   5a. two kinds of request `pattern` are dropped too, wherever they are (parameters, bodies):
 *      - an id's (`^acct_[0-9A-HJKMNP-TV-Z]{26}$`): ids are opaque, the server answers an id of another shape as one
 *        that does not exist (404, docs/api.md#the-wire), and a client that refused it would refuse the day the server mints
 *        ids of a new shape, the ids it hands out itself;
 *      - free text's (a name, a description: spelled-out Unicode ranges, see src/platform/kit/text.ts): the
 *        generators copy a pattern into the target language's regex engine as it is, and PHP's preg without `/u`
 *        refuses `\u` escapes (every value would fail), and Go's RE2 has no `\u` escape either;
 *        the description states the rule, and the server answers 400 `parameter_invalid` with it;
 *      and `propertyNames` (metadata's rule for its keys) and `dependentSchemas` (a transfer's expiry only with
 *      `pending`), which 3.0 cannot state and generators ignore;
 *   5b. the items of a `uniqueItems` array of an enum (`enabled_events` of a webhook endpoint) are opened the same
 *      way, in requests too: OpenAPI Generator's Java output for such an array (a `Set<EnabledEventsEnum>`) does not
 *      compile (its `toUrlQueryString` iterates the set as `String`), and the list it names (event types,
 *      docs/api.md#events) grows, so a client should be able to subscribe to a type newer than itself;
 *   5c. a boolean of one allowed value (a payment rule's `reject: true`, an `enum` or `const`), anywhere, becomes a
 *      plain boolean, the value stated in its description: Kotlin's generator makes an enum class of Boolean whose
 *      open-enum default is an Int (`unknown_default_open_api(11184809)`), which does not compile; the server still
 *      answers another value with 400 `parameter_invalid`;
 *   6. a 3.0.3 down-conversion (`toOpenApi30`, written to clients/openapi.sdk.3.0.json) for generators whose 3.1
 *      support is weak: `type: [x, "null"]` → `nullable: true`, schema `examples` → `example`, `const` → one-value enum,
 *      3.1-only document fields removed; anything it cannot convert faithfully makes it throw, so a new construct
 *      in the document is noticed here rather than silently mangled in nine clients.
 *
 *   7. for a language whose client.json asks (`"instants": "date-time"`, Python), a view of its own in which the
 *      times of responses are `format: date-time` (writeInstantsView).
 *
 *   node scripts/clients/sdk-view.ts [outDir]     (default: clients/) → openapi.sdk.json, openapi.sdk.3.0.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const REF_PREFIX = '#/components/schemas/';

function isObj(value: Json | undefined): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: Json | undefined, where: string): Obj {
  if (!isObj(value)) throw new Error(`sdk-view: expected an object at ${where}`);
  return value;
}

function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}

/** The operations of a document, with a path for error messages. */
function* operations(doc: Obj): Generator<{ path: string; method: string; op: Obj }> {
  for (const [path, item] of Object.entries(obj(doc.paths, 'paths'))) {
    for (const method of HTTP_METHODS) {
      const op = obj(item, path)[method];
      if (isObj(op)) yield { path, method, op };
    }
  }
}

/** Direct sub-schemas of a schema, with a setter so a caller can replace them. */
function* subSchemas(schema: Obj): Generator<{ key: string; get: () => Obj; set: (s: Obj) => void }> {
  const props = schema.properties;
  if (isObj(props)) {
    for (const name of Object.keys(props)) {
      yield { key: `properties.${name}`, get: () => obj(props[name], name), set: (s) => (props[name] = s) };
    }
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    if (isObj(schema[key])) yield { key, get: () => obj(schema[key], key), set: (s) => (schema[key] = s) };
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      for (let i = 0; i < list.length; i++) {
        yield { key: `${key}.${i}`, get: () => obj(list[i], key), set: (s) => (list[i] = s) };
      }
    }
  }
}

function isInlineObject(schema: Obj): boolean {
  const type = schema.type;
  const isObjectType = type === 'object' || (Array.isArray(type) && type.includes('object'));
  return (
    isObjectType && isObj(schema.properties) && Object.keys(schema.properties).length > 0 && schema.$ref === undefined
  );
}

/**
 * An optional body that can hold nothing (`{}` or no body, as for revoking a key) is dropped: generators turn an
 * object without properties into a free-form map parameter, or drop it and keep a clashing name, and the request
 * means the same without it.
 */
function dropEmptyOptionalBodies(doc: Obj): void {
  for (const { op } of operations(doc)) {
    const body = op.requestBody;
    if (!isObj(body) || body.required === true || !isObj(body.content)) continue;
    const empty = Object.values(body.content).every((media) => {
      const schema = isObj(media) ? media.schema : undefined;
      return (
        isObj(schema) &&
        schema.type === 'object' &&
        isObj(schema.properties) &&
        Object.keys(schema.properties).length === 0 &&
        schema.additionalProperties === false
      );
    });
    if (empty) delete op.requestBody;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Leave out operations without a JSON success response.

function dropNonJsonOperations(doc: Obj): void {
  const paths = obj(doc.paths, 'paths');
  for (const { path, method, op } of [...operations(doc)]) {
    const responses = obj(op.responses, `${path} ${method} responses`);
    const success = Object.entries(responses).filter(([status]) => status.startsWith('2'));
    const json = success.some(
      ([, response]) => isObj(response) && isObj(response.content) && isObj(response.content['application/json']),
    );
    if (!json) delete obj(paths[path], path)[method];
  }
  for (const [path, item] of Object.entries(paths)) {
    if (!HTTP_METHODS.some((method) => isObj(obj(item, path)[method]))) delete paths[path];
  }
  // Tags no remaining operation uses would give empty API classes in some generators.
  const used = new Set<string>();
  for (const { op } of operations(doc)) for (const tag of (op.tags as string[] | undefined) ?? []) used.add(tag);
  if (Array.isArray(doc.tags)) doc.tags = doc.tags.filter((tag) => isObj(tag) && used.has(String(tag.name)));
}

// ---------------------------------------------------------------------------------------------------------------
// 3 and 4. Name inline objects.

function addComponent(doc: Obj, name: string, schema: Obj): Obj {
  const schemas = obj(obj(doc.components, 'components').schemas, 'components.schemas');
  if (schemas[name] !== undefined) throw new Error(`sdk-view: cannot name an inline schema ${name}: the name is taken`);
  schemas[name] = schema;
  hoistNested(doc, name, schema);
  return { $ref: REF_PREFIX + name };
}

/** Replaces an inline object with a reference to a new component; a nullable one with `anyOf: [ref, null]`. */
function hoist(doc: Obj, name: string, schema: Obj): Obj {
  const named = clone(schema);
  let nullable = false;
  if (Array.isArray(named.type)) {
    const types = named.type.filter((t) => t !== 'null');
    nullable = types.length < named.type.length;
    if (types.length !== 1) throw new Error(`sdk-view: ${name} has several non-null types`);
    named.type = types[0]!;
  }
  // The description says what the field means where it is used; it stays on the property.
  const description = named.description;
  delete named.description;
  const ref = addComponent(doc, name, named);
  const replacement: Obj = nullable ? { anyOf: [ref, { type: 'null' }] } : ref;
  if (description !== undefined) {
    // A $ref with siblings is fine in 3.1; the 3.0 conversion moves it into allOf anyway.
    replacement.description = description;
  }
  return replacement;
}

/** Names every inline object found under a component: property `kyb` of `Account` → `AccountKyb`. */
function hoistNested(doc: Obj, owner: string, schema: Obj): void {
  for (const sub of subSchemas(schema)) {
    const child = sub.get();
    let name: string;
    if (sub.key.startsWith('properties.')) name = owner + pascal(sub.key.slice('properties.'.length));
    else if (sub.key === 'items') name = `${owner}Item`;
    else name = owner + pascal(sub.key);
    if (sub.key.startsWith('properties.') && isObj(child.items) && isInlineObject(child.items)) {
      child.items = hoist(doc, `${name}Item`, child.items);
    } else if (isInlineObject(child)) {
      sub.set(hoist(doc, name, child));
    } else {
      hoistNested(doc, name, child);
    }
  }
}

/** 3a: every property that is one of several inline object shapes, anywhere, becomes one object of them all. */
function mergeObjectUnions(doc: Obj): void {
  const seen = new Set<Obj>();
  const visit = (schema: Obj) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    if (isObj(schema.properties)) {
      for (const [name, raw] of Object.entries(schema.properties)) {
        if (!isObj(raw) || !Array.isArray(raw.anyOf) || raw.anyOf.length < 2) continue;
        const shapes = raw.anyOf.filter(isObj);
        if (shapes.length !== raw.anyOf.length || !shapes.every(isInlineObject)) continue;
        const properties: Obj = {};
        for (const shape of shapes)
          for (const [key, value] of Object.entries(obj(shape.properties, name))) properties[key] ??= clone(value);
        const merged: Obj = { type: 'object', properties };
        if (shapes.every((shape) => shape.additionalProperties === false)) merged.additionalProperties = false;
        if (raw.description !== undefined) merged.description = raw.description;
        schema.properties[name] = merged;
      }
    }
    for (const sub of subSchemas(schema)) visit(sub.get());
  };
  for (const schema of Object.values(obj(obj(doc.components, 'components').schemas, 'components.schemas')))
    if (isObj(schema)) visit(schema);
  for (const { op } of operations(doc))
    if (isObj(op.requestBody) && isObj(op.requestBody.content))
      for (const media of Object.values(op.requestBody.content))
        if (isObj(media) && isObj(media.schema)) visit(media.schema);
}

function nameInlineObjects(doc: Obj): void {
  const schemas = obj(obj(doc.components, 'components').schemas, 'components.schemas');
  for (const [name, schema] of Object.entries(schemas)) hoistNested(doc, name, obj(schema, name));
  for (const { path, method, op } of operations(doc)) {
    const base = pascal(String(op.operationId ?? `${method} ${path}`));
    if (isObj(op.requestBody)) {
      for (const media of Object.values(obj(op.requestBody.content, `${base} requestBody`))) {
        if (isObj(media) && isObj(media.schema) && isInlineObject(media.schema)) {
          media.schema = hoist(doc, `${base}Request`, media.schema);
        }
      }
    }
    for (const response of Object.values(obj(op.responses, `${base} responses`))) {
      if (!isObj(response) || !isObj(response.content)) continue;
      for (const media of Object.values(response.content)) {
        if (isObj(media) && isObj(media.schema) && isInlineObject(media.schema)) {
          media.schema = hoist(doc, `${base}Response`, media.schema);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Loosen what responses can reach.

function responseSchemaRoots(doc: Obj): Obj[] {
  const roots: Obj[] = [];
  const headers = (owner: Json | undefined) => {
    if (!isObj(owner)) return;
    for (const header of Object.values(owner)) if (isObj(header) && isObj(header.schema)) roots.push(header.schema);
  };
  for (const { op } of operations(doc)) {
    for (const response of Object.values(obj(op.responses, 'responses'))) {
      if (!isObj(response)) continue;
      headers(response.headers);
      if (isObj(response.content))
        for (const media of Object.values(response.content))
          if (isObj(media) && isObj(media.schema)) roots.push(media.schema);
    }
  }
  headers(obj(doc.components, 'components').headers);
  return roots;
}

/** The pattern of a time the API answers with (`^\d{4}-\d{2}-\d{2}T…`, src/platform/kit/time.ts). */
const INSTANT_PATTERN = /^\^\\d\{4\}-\\d\{2\}-\\d\{2\}T/;

function loosen(doc: Obj, instants: boolean): void {
  const schemas = obj(obj(doc.components, 'components').schemas, 'components.schemas');
  const seen = new Set<Obj>();
  const visit = (schema: Obj) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    if (typeof schema.$ref === 'string') {
      if (!schema.$ref.startsWith(REF_PREFIX)) throw new Error(`sdk-view: unexpected $ref ${schema.$ref}`);
      visit(obj(schemas[schema.$ref.slice(REF_PREFIX.length)], schema.$ref));
    }
    if (schema.additionalProperties === false) delete schema.additionalProperties;
    // 7. before its pattern goes: a time, for a language whose client.json asks for its own date-time type.
    if (instants && typeof schema.pattern === 'string' && INSTANT_PATTERN.test(schema.pattern))
      schema.format = 'date-time';
    delete schema.pattern;
    // `const` is a one-value enum (JSON Schema 2020-12), and is opened the same way.
    if ('const' in schema) {
      schema.enum = [schema.const!];
      delete schema.const;
    }
    openEnum(schema);
    for (const sub of subSchemas(schema)) visit(sub.get());
  };
  for (const root of responseSchemaRoots(doc)) visit(root);
}

/** An enum (closed) becomes an open string whose known values are in its description and `x-enum-values`. */
function openEnum(schema: Obj): void {
  if (!Array.isArray(schema.enum)) return;
  const known = schema.enum.filter((value) => value !== null);
  delete schema.enum;
  const list = known.map((value) => `\`${String(value)}\``).join(', ');
  const note = `Known values: ${list}; others may be added, so treat this as an open string.`;
  schema.description = typeof schema.description === 'string' ? `${schema.description} ${note}` : note;
  schema['x-enum-values'] = known;
}

/**
 * 5b: the items of a `uniqueItems` array of an enum, anywhere (requests too), become open strings; 5c: a boolean of
 * one value, a plain boolean.
 */
function openUniqueEnumArrays(doc: Obj): void {
  const seen = new Set<Obj>();
  const visit = (schema: Obj) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    if (schema.uniqueItems === true && isObj(schema.items) && Array.isArray(schema.items.enum)) openEnum(schema.items);
    // 5c: a boolean of one allowed value is a plain boolean.
    const one = 'const' in schema ? [schema.const] : schema.enum;
    if (schema.type === 'boolean' && Array.isArray(one) && one.length === 1) {
      const note = `Only \`${String(one[0])}\` is accepted.`;
      schema.description = typeof schema.description === 'string' ? `${schema.description} ${note}` : note;
      delete schema.enum;
      delete schema.const;
    }
    for (const sub of subSchemas(schema)) visit(sub.get());
  };
  for (const schema of Object.values(obj(obj(doc.components, 'components').schemas, 'components.schemas')))
    if (isObj(schema)) visit(schema);
}

// ---------------------------------------------------------------------------------------------------------------
// 5a. Drop the request patterns no client should check.

// The shape of src/platform/kit/ids.ts's idPattern (kept literal here: this script reads only the document).
const ID_PATTERN = /^\^[a-z]+_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/;

/** Whether every generator's target engine reads a pattern alike: printable ASCII, no `\u` escape. */
function portable(pattern: string): boolean {
  return /^[\x20-\x7e]*$/.test(pattern) && !pattern.includes('\\u');
}

function dropClientUnsafePatterns(doc: Obj): void {
  const seen = new Set<Obj>();
  const visit = (schema: Obj) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    if (typeof schema.pattern === 'string' && (ID_PATTERN.test(schema.pattern) || !portable(schema.pattern)))
      delete schema.pattern;
    // Metadata's key rule and a transfer's "expires_in_seconds only with pending: true": generators have no use
    // for either (3.0 cannot state them); the descriptions say them, and the server answers 400 with them.
    delete schema.propertyNames;
    delete schema.dependentSchemas;
    for (const sub of subSchemas(schema)) visit(sub.get());
  };
  const parameters = (list: Json | undefined) => {
    if (Array.isArray(list)) for (const p of list) if (isObj(p) && isObj(p.schema)) visit(p.schema);
  };
  const components = obj(doc.components, 'components');
  for (const schema of Object.values(obj(components.schemas, 'components.schemas'))) if (isObj(schema)) visit(schema);
  if (isObj(components.parameters)) parameters(Object.values(components.parameters));
  for (const { op } of operations(doc)) {
    parameters(op.parameters);
    if (isObj(op.requestBody) && isObj(op.requestBody.content))
      for (const media of Object.values(op.requestBody.content))
        if (isObj(media) && isObj(media.schema)) visit(media.schema);
  }
  for (const item of Object.values(obj(doc.paths, 'paths'))) if (isObj(item)) parameters(item.parameters);
}

export function sdkView(source: Obj, { instants = false }: { instants?: boolean } = {}): Obj {
  const doc = clone(source);
  dropNonJsonOperations(doc);
  dropEmptyOptionalBodies(doc);
  mergeObjectUnions(doc);
  nameInlineObjects(doc);
  loosen(doc, instants);
  dropClientUnsafePatterns(doc);
  openUniqueEnumArrays(doc);
  const info = obj(doc.info, 'info');
  info.description =
    `${String(info.description ?? '')}\n\nThis is the SDK view of the API description, derived by scripts/clients/sdk-view.ts for client generators: enums in responses are open strings, responses may carry fields not listed here, and pages that are not JSON are left out. The server's own document is /v1/openapi.json.`.trim();
  return doc;
}

// ---------------------------------------------------------------------------------------------------------------
// 6. OpenAPI 3.1 → 3.0.3.

const UNCONVERTIBLE = [
  'prefixItems',
  '$defs',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  'patternProperties',
  'contains',
  'propertyNames',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicRef',
];

/** The `type` of the component a `$ref` names, so a nullable reference can say it (3.0 ignores `nullable` without `type`). */
let componentType: (ref: string) => Json | undefined = () => undefined;

function schemaTo30(schema: Obj, where: string): Obj {
  for (const key of UNCONVERTIBLE)
    if (key in schema) throw new Error(`sdk-view: ${where} uses ${key}, which OpenAPI 3.0 cannot express`);
  let out: Obj = { ...schema };
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== 'null');
    if (types.length !== 1) throw new Error(`sdk-view: ${where} has type ${JSON.stringify(out.type)}`);
    if (types.length < out.type.length) out.nullable = true;
    out.type = types[0]!;
  }
  if (Array.isArray(out.examples)) {
    if (out.examples.length > 0) out.example = out.examples[0]!;
    delete out.examples;
  }
  if ('const' in out) {
    out.enum = [out.const!];
    delete out.const;
  }
  for (const [bound, keyword] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof out[keyword] === 'number') {
      out[bound] = out[keyword];
      out[keyword] = true;
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = out[key];
    if (!Array.isArray(list)) continue;
    const rest = list.filter((s) => !(isObj(s) && s.type === 'null' && Object.keys(s).length === 1));
    if (rest.length === list.length) continue;
    if (rest.length !== 1) throw new Error(`sdk-view: ${where}.${key} mixes null with several schemas`);
    delete out[key];
    const only = obj(rest[0], where);
    // 3.0 ignores siblings of $ref, so a nullable reference is spelled allOf: [$ref] + nullable, with the type,
    // without which 3.0.3 says nullable has no effect.
    if (typeof only.$ref === 'string') {
      const type = componentType(only.$ref);
      out = { ...out, ...(type === undefined ? {} : { type }), allOf: [only], nullable: true };
    } else {
      out = { ...out, ...only, nullable: true };
    }
  }
  if (typeof out.$ref === 'string' && Object.keys(out).length > 1) {
    const { $ref, ...siblings } = out;
    out = { ...siblings, allOf: [{ $ref }] };
  }
  for (const sub of subSchemas(out)) sub.set(schemaTo30(sub.get(), `${where}.${sub.key}`));
  return out;
}

function contentTo30(content: Json | undefined, where: string): void {
  if (!isObj(content)) return;
  for (const [type, media] of Object.entries(content))
    if (isObj(media) && isObj(media.schema)) media.schema = schemaTo30(media.schema, `${where} ${type}`);
}

function parametersTo30(parameters: Json | undefined, where: string): void {
  if (!Array.isArray(parameters)) return;
  for (const parameter of parameters)
    if (isObj(parameter) && isObj(parameter.schema))
      parameter.schema = schemaTo30(parameter.schema, `${where} ${String(parameter.name)}`);
}

function headersTo30(headers: Json | undefined, where: string): void {
  if (!isObj(headers)) return;
  for (const [name, header] of Object.entries(headers))
    if (isObj(header) && isObj(header.schema)) header.schema = schemaTo30(header.schema, `${where} ${name}`);
}

export function toOpenApi30(view: Obj): Obj {
  const doc = clone(view);
  doc.openapi = '3.0.3';
  for (const key of ['webhooks', 'jsonSchemaDialect']) {
    if (key in doc)
      throw new Error(
        `sdk-view: the document has ${key}, which OpenAPI 3.0 cannot express; decide how the SDK view should treat it`,
      );
  }
  const info = obj(doc.info, 'info');
  delete info.summary;
  if (isObj(info.license) && typeof info.license.identifier === 'string') {
    // 3.0 has no SPDX identifier field but wants a URL; SPDX's page for the identifier is that URL.
    info.license.url ??= `https://spdx.org/licenses/${info.license.identifier}.html`;
    delete info.license.identifier;
  }
  const components = obj(doc.components, 'components');
  if ('pathItems' in components) throw new Error('sdk-view: components.pathItems has no OpenAPI 3.0 form');
  const schemas = obj(components.schemas, 'components.schemas');
  const original = clone(schemas);
  componentType = (ref) => {
    const target = original[ref.slice(REF_PREFIX.length)];
    return isObj(target) ? target.type : undefined;
  };
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = schemaTo30(obj(schema, name), name);
  if (isObj(components.parameters)) {
    for (const [name, parameter] of Object.entries(components.parameters))
      parametersTo30([parameter], `parameters.${name}`);
  }
  headersTo30(components.headers, 'headers');
  for (const { path, method, op } of operations(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    parametersTo30(op.parameters, where);
    if (isObj(op.requestBody)) contentTo30(op.requestBody.content, `${where} requestBody`);
    for (const [status, response] of Object.entries(obj(op.responses, where))) {
      if (!isObj(response)) continue;
      contentTo30(response.content, `${where} ${status}`);
      headersTo30(response.headers, `${where} ${status}`);
    }
  }
  for (const item of Object.values(obj(doc.paths, 'paths')))
    parametersTo30(obj(item, 'path item').parameters, 'path parameters');
  return doc;
}

// ---------------------------------------------------------------------------------------------------------------

const SOURCE = resolve(import.meta.dirname, '../../openapi/openapi.json');

/**
 * 7. One language's own view, for a client.json with `"instants": "date-time"`: the SDK view in which every time a
 * response carries is `format: date-time`, so that the generator types it as the language's date-time (Python's
 * `datetime`) instead of a string. Not for every language: a time the API writes to the minute
 * (`2026-11-24T09:30Z`) is not RFC 3339, which some generated parsers (Go's, Java's) refuse. Written beside the
 * generator's batch files, not to clients/.
 */
export function writeInstantsView(file: string, input: '3.1' | '3.0', sourcePath = SOURCE): void {
  const view = sdkView(JSON.parse(readFileSync(sourcePath, 'utf8')) as Obj, { instants: true });
  writeFileSync(file, `${JSON.stringify(input === '3.0' ? toOpenApi30(view) : view, null, 2)}\n`);
}

export function writeSdkViews(outDir: string, sourcePath = SOURCE): void {
  const source = JSON.parse(readFileSync(sourcePath, 'utf8')) as Obj;
  const view = sdkView(source);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'openapi.sdk.json'), `${JSON.stringify(view, null, 2)}\n`);
  writeFileSync(join(outDir, 'openapi.sdk.3.0.json'), `${JSON.stringify(toOpenApi30(view), null, 2)}\n`);
}

if (import.meta.main) {
  writeSdkViews(resolve(process.argv[2] ?? resolve(import.meta.dirname, '../../clients')));
}
