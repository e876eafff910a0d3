/**
 * The language-neutral model of the client operations: what every language's template
 * (scripts/clients/layers/<lang>.ts) turns into that language's per-operation layer, read from the SDK view
 * (clients/openapi.sdk.json, scripts/clients/sdk-view.ts) and from nothing else.
 *
 * An operation is for clients unless it is tagged `Operations` or `Documentation` (probes and the document itself:
 * reachable through each language's generated API and raw request). Its client names are not derivable from the
 * document's paths and ids (`createTransferReversal` is `transfers.reverse`, `listAccountTransactions` is
 * `transactions.list`), so each route declares them beside its operationId, as the vendor extension
 *
 *   'x-plinth-sdk': { resource: 'transfers', method: 'reverse' }      (no `resource`: a method of the client itself)
 *
 * (src/platform/operations/operation.ts adds `secretFields` to it from a write's declaration)
 * in camelCase; each template recases (`list_reversals`, `ListReversals`). A list operation (one that takes
 * `starting_after`) gives two methods: `<method>` iterates every page and `<method>Page` returns one
 * (clients/README.md), so the model names both. A read with another cursor (the audit chain's `after`) is
 * not a list here: one method, one page, its cursor and `limit` among its query parameters.
 *
 *   node scripts/clients/layers/model.ts [clients/openapi.sdk.json]   prints the model as JSON
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The OpenAPI document, read as plain JSON. */
export type Json = any;

const NOT_FOR_CLIENTS = new Set(['Operations', 'Documentation']);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** The paging parameters every list takes; the hand-written pagination of each language handles them. */
export const PAGING = ['limit', 'starting_after', 'ending_before'] as const;

/**
 * What a query parameter holds, so a template can pick the language's type and encoding:
 * - `string`, `integer`: as is; `enum`: a string whose known values are `values` (open: others may come);
 * - `time`: a moment, `YYYY-MM-DDTHH:MMZ` or RFC 3339 (each language's hand-written time helper formats it);
 * - `created`: a range `{gt, gte, lt, lte}` of moments, sent as `created[gte]=…` (deepObject);
 * - `metadata`: string pairs, sent as `metadata[key]=value` (deepObject).
 */
export type ParamKind = 'string' | 'integer' | 'enum' | 'time' | 'created' | 'metadata';

export interface Param {
  /** As the wire names it: `reversal_id`, `account_id`. */
  name: string;
  kind: ParamKind;
  /** The known values of an `enum`. */
  values?: string[];
  /** An `integer` that may pass 2^31 (`format: int64`: a `sequence`): 64-bit in typed languages. */
  int64?: true;
  required: boolean;
  description: string;
}

export interface Body {
  /** The component the SDK view names it (`CreateTransferRequest`). */
  schema: string;
  /** False when the call may be made without one (`{}` then stands for it). */
  required: boolean;
  /** Its fields, in the document's order. */
  fields: Field[];
}

/**
 * What a body field holds, so a template can pick the language's type: `string`, `integer` (int64: money),
 * `boolean`, `enum` (an open string, known values in `values`), `strings` (a list of strings), `metadata` (string
 * pairs), `metadataUpdate` (string pairs, or `""` to remove every key: docs/api.md#metadata-your-own-references),
 * `object` (a named component, `schema`: an account's `kyb`, a key's `permissions`).
 */
export type FieldKind =
  | 'string'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'strings'
  | 'metadata'
  | 'metadataUpdate'
  | 'object';

export interface Field {
  /** As the wire names it: `from_account_id`. */
  name: string;
  kind: FieldKind;
  values?: string[];
  /**
   * The component of an `object`. For one of several shapes (`anyOf` named components: a payment rule's `action`,
   * `{return, at}` or `{reject}`), the name OpenAPI Generator gives the inline union, `<Body><Field>`
   * (`CreatePaymentRuleRequestAction`), and `variants` lists the shapes.
   */
  schema?: string;
  variants?: string[];
  /** An `object` that takes names beyond those it lists (a key's permissions: the groups are the server's to judge). */
  open?: boolean;
  required: boolean;
  /** `null` is a value the API takes (it clears the field): a language then tells "not given" from null. */
  nullable: boolean;
  description: string;
}

export interface Operation {
  operationId: string;
  /** camelCase resource (`webhookEndpoints`), or null for a method of the client itself (`signUp`). */
  resource: string | null;
  /** camelCase method (`listReversals`). */
  method: string;
  /** For a list: the one-page method (`listReversalsPage`); null otherwise. */
  pageMethod: string | null;
  /** `GET`, `POST`, `DELETE`. */
  httpMethod: string;
  /** The document's path: `/v1/fintech/transfers/{id}/reversals/{reversal_id}`. */
  path: string;
  /** The first tag: the group OpenAPI Generator files it under (its `<Tag>Api` class). */
  tag: string;
  /** In the order they appear in the path. */
  pathParams: Param[];
  /**
   * A list's filters: every query parameter but the paging ones. Of any other operation, every query parameter:
   * a read paged otherwise than by `starting_after`/`ending_before` (the audit chain, oldest first from `after`, a
   * `sequence`, `limit` at a time) is a plain method returning one page, its `after` and `limit` plain integers.
   */
  queryParams: Param[];
  /** Takes `starting_after`: pages of `itemSchema`. */
  list: boolean;
  body: Body | null;
  /** The 2xx JSON answer's component (`TransferReversalList`). */
  responseSchema: string;
  /** A list's item component (`TransferReversal`); null otherwise. */
  itemSchema: string | null;
  /**
   * Fields of the answer shown this once (an API key's `key`, an endpoint's `secret`): null on an idempotent replay,
   * so each language types them as present and raises its replayed-secret error when they are not.
   */
  secretFields: string[];
  /** Takes an `Idempotency-Key` (every POST but the sign-up). */
  idempotent: boolean;
  summary: string;
  /** The document's description, without the permission line the server appends (`Permission: …`). */
  description: string;
}

/** A node of the document with its `$ref` followed (the README tables read the document the same way). */
export function deref(doc: Json, node: Json): Json {
  if (!node?.$ref) return node;
  return node.$ref
    .split('/')
    .slice(1)
    .reduce((at: Json, key: string) => at[key], doc);
}

function refName(node: Json, where: string): string {
  if (typeof node?.$ref !== 'string') throw new Error(`${where}: expected a $ref to a named schema`);
  return node.$ref.split('/').at(-1);
}

/** A moment's pattern, as src/platform/kit (ApiTime) writes it: the document keeps it on request parameters. */
function isTime(schema: Json): boolean {
  return schema?.type === 'string' && typeof schema.pattern === 'string' && schema.pattern.startsWith('^(\\d{4}-');
}

function kindOf(param: Json, where: string): Pick<Param, 'kind' | 'values' | 'int64'> {
  const schema = param.schema ?? {};
  if (param.style === 'deepObject') {
    if (schema.properties?.gte) return { kind: 'created' };
    if (schema.additionalProperties) return { kind: 'metadata' };
    throw new Error(`${where}: a deepObject parameter that is neither a range nor string pairs`);
  }
  if (isTime(schema)) return { kind: 'time' };
  if (Array.isArray(schema.enum)) return { kind: 'enum', values: schema.enum };
  if (schema.type === 'integer')
    return schema.format === 'int64' ? { kind: 'integer', int64: true } : { kind: 'integer' };
  if (schema.type === 'string') return { kind: 'string' };
  throw new Error(`${where}: parameter ${param.name} of a type no template knows (${JSON.stringify(schema.type)})`);
}

function fieldOf(doc: Json, body: string, name: string, raw: Json, required: boolean, where: string): Field {
  const types = [raw.type ?? []].flat();
  const nullable = types.includes('null') || (raw.anyOf ?? []).some((s: Json) => s.type === 'null');
  const base = { name, required, nullable, description: raw.description ?? '' };
  const variants: Json[] = raw.anyOf ?? [raw];
  const refs = variants.filter((s) => s.$ref);
  if (refs.length > 1)
    return {
      ...base,
      kind: 'object',
      schema: `${body}${pascal(name)}`,
      variants: refs.map((ref) => refName(ref, `${where} ${name}`)),
    };
  const object = refs[0];
  if (object) {
    const open = deref(doc, object).additionalProperties === true;
    return { ...base, kind: 'object', schema: refName(object, `${where} ${name}`), ...(open ? { open } : {}) };
  }
  if (variants.some((s) => s.type === 'object' && s.additionalProperties))
    return { ...base, kind: raw.anyOf ? 'metadataUpdate' : 'metadata' };
  if (types.includes('array')) return { ...base, kind: 'strings' };
  if (Array.isArray(raw.enum)) return { ...base, kind: 'enum', values: raw.enum };
  if (types.includes('integer')) return { ...base, kind: 'integer' };
  if (types.includes('boolean')) return { ...base, kind: 'boolean' };
  if (types.includes('string')) return { ...base, kind: 'string' };
  throw new Error(`${where}: field ${name} of a type no template knows (${JSON.stringify(raw).slice(0, 80)})`);
}

function param(doc: Json, raw: Json, where: string): Param & { in: string } {
  const p = deref(doc, raw);
  return {
    in: p.in,
    name: p.name,
    ...kindOf(p, `${where} ${p.name}`),
    required: p.required === true,
    description: p.description ?? '',
  };
}

/** The description without the line the server adds about the permission (operation.ts's `documented`). */
function ownDescription(description: string | undefined): string {
  return (description ?? '')
    .split('\n\n')
    .filter((part) => !/^Permission: /.test(part) && !/^Needs /.test(part))
    .join('\n\n')
    .trim();
}

/** The client operations of an SDK view, in the document's order. Throws on what no template could render. */
export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const verb of HTTP_METHODS) {
      const op = item[verb];
      if (!op?.operationId) continue;
      if ((op.tags ?? []).some((tag: string) => NOT_FOR_CLIENTS.has(tag))) continue;
      const where = `${op.operationId} (${verb.toUpperCase()} ${path})`;
      const sdk = op['x-plinth-sdk'];
      if (!sdk || typeof sdk.method !== 'string')
        throw new Error(`${where}: no x-plinth-sdk {resource, method}: declare it beside the route's operationId`);
      const name = `${sdk.resource ?? ''}.${sdk.method}`;
      if (seen.has(name)) throw new Error(`${where}: ${name} is already ${seen.get(name)}`);
      seen.set(name, op.operationId);
      const params = (op.parameters ?? []).map((p: Json) => param(doc, p, where));
      const list = params.some((p: { name: string }) => p.name === 'starting_after');
      const bodyRef = op.requestBody?.content?.['application/json']?.schema;
      const bodySchema = bodyRef ? deref(doc, bodyRef) : null;
      const response = Object.entries<Json>(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
      const responseRef = deref(doc, response)?.content?.['application/json']?.schema;
      const responseSchema = refName(responseRef, `${where} response`);
      const itemRef = list ? deref(doc, responseRef)?.properties?.data?.items : null;
      const strip = ({ in: _in, ...rest }: Param & { in: string }): Param => rest;
      out.push({
        operationId: op.operationId,
        resource: sdk.resource ?? null,
        method: sdk.method,
        pageMethod: list ? `${sdk.method}Page` : null,
        httpMethod: verb.toUpperCase(),
        path,
        tag: op.tags?.[0] ?? '',
        pathParams: params.filter((p: Param & { in: string }) => p.in === 'path').map(strip),
        queryParams: params
          .filter(
            (p: Param & { in: string }) =>
              p.in === 'query' && !(list && (PAGING as readonly string[]).includes(p.name)),
          )
          .map(strip),
        list,
        body: bodyRef
          ? {
              schema: refName(bodyRef, `${where} body`),
              required: op.requestBody.required === true,
              fields: Object.entries<Json>(bodySchema?.properties ?? {}).map(([field, schema]) =>
                fieldOf(
                  doc,
                  refName(bodyRef, `${where} body`),
                  field,
                  schema,
                  (bodySchema.required ?? []).includes(field),
                  `${where} body`,
                ),
              ),
            }
          : null,
        responseSchema,
        itemSchema: itemRef ? refName(itemRef, `${where} list items`) : null,
        secretFields: Array.isArray(sdk.secretFields) ? sdk.secretFields : [],
        idempotent: (op.parameters ?? []).some((p: Json) => deref(doc, p)?.name === 'Idempotency-Key'),
        summary: op.summary ?? '',
        description: ownDescription(op.description),
      });
    }
  }
  // Path parameters in path order (the document lists query parameters first on some lists).
  for (const op of out) {
    const order = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    op.pathParams.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  }
  return out;
}

/** The model of clients/openapi.sdk.json (or of the SDK view in `clientsDir`). */
export function loadModel(clientsDir: string = resolve(import.meta.dirname, '../../../clients')): Operation[] {
  return operationsOf(JSON.parse(readFileSync(join(clientsDir, 'openapi.sdk.json'), 'utf8')));
}

/** The operations of one resource (null: the client's own), in the document's order. */
export function byResource(ops: Operation[]): Map<string | null, Operation[]> {
  const groups = new Map<string | null, Operation[]>();
  for (const op of ops) groups.set(op.resource, [...(groups.get(op.resource) ?? []), op]);
  return groups;
}

// --- recasing, shared by the templates --------------------------------------------------------------------------

/** `listReversals` / `reversal_id` → its words, lower case: ['list', 'reversals']. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}
export const camel = (name: string): string =>
  words(name)
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join('');
export const pascal = (name: string): string =>
  words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
export const snake = (name: string): string => words(name).join('_');

// --- what every template shares (layers.ts runs them) ------------------------------------------------------------

export interface Template {
  /** The clients/<lang>/ directory it writes into. */
  lang: string;
  /** Directories (under clients/<lang>/) that hold generated files only. */
  owns: string[];
  /**
   * Path under clients/<lang>/ → text. `langDir` is the language's committed directory, for templates that look
   * at the hand-written code beside what they write (which resources have a hand-written extension).
   */
  render(ops: Operation[], langDir: string): Record<string, string>;
}

/** Wraps prose at `width` columns, each line prefixed by `prefix`; blank lines between paragraphs are kept. */
export function wrap(text: string, prefix: string, width = 118): string[] {
  const lines: string[] = [];
  const paragraphs = text.split(/\n\s*\n/);
  paragraphs.forEach((paragraph, i) => {
    if (i > 0) lines.push(prefix.trimEnd());
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && prefix.length + line.length + 1 + word.length > width) {
        lines.push(prefix + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(prefix + line);
  });
  return lines;
}

/** The summary and description of an operation as doc-comment prose. */
export function prose(op: Operation): string {
  const summary = /[.!?]$/.test(op.summary) ? op.summary : `${op.summary}.`;
  return op.description ? `${summary}\n\n${op.description}` : summary;
}

/** methods.json as the languages commit it: one operation a line, `"<operationId>": ["<resource>.<method>", …]`. */
export function manifest(methods: Record<string, string[]>): string {
  const lines = Object.entries(methods).map(
    ([id, names]) => `  ${JSON.stringify(id)}: [${names.map((n) => JSON.stringify(n)).join(', ')}]`,
  );
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** A parameter of a generated API call, as OpenAPI Generator wrote it. */
export interface GeneratedArg {
  name: string;
  type: string;
}

/**
 * What a template reads of OpenAPI Generator's API classes in `dir` (files ending `Api.<ext>`): the class of each
 * tag (the file named as the tag without spaces, in any case: `API keys` → ApiKeysApi, APIKeysApi) and, by
 * operationId, the parameters of the call `signature` matches (group 1 the operationId, group 2 the parameter list,
 * which `arg` reads one by one; the first match of an operationId wins).
 */
export function generatedApi(
  ops: Operation[],
  dir: string,
  ext: string,
  signature: RegExp,
  arg: (text: string) => GeneratedArg,
): { classes: Map<string, string>; calls: Map<string, GeneratedArg[]> } {
  const files = readdirSync(dir).filter((f) => f.endsWith(`Api.${ext}`));
  const classes = new Map<string, string>();
  for (const op of ops) {
    const file = files.find((f) => f.toLowerCase() === `${op.tag.replace(/\s+/g, '')}api.${ext}`.toLowerCase());
    if (file) classes.set(op.tag, file.slice(0, -ext.length - 1));
  }
  const calls = new Map<string, GeneratedArg[]>();
  for (const f of files) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(signature)) {
      if (calls.has(m[1]!)) continue;
      const args = m[2]!.split(/,\s*(?![^<]*>)/).map((a) => a.trim());
      calls.set(m[1]!, args.filter(Boolean).map(arg));
    }
  }
  return { classes, calls };
}

/** The first sentence of a description, on one line. */
export function firstSentence(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const end = one.search(/\.(\s|$)/);
  return end < 0 ? one : one.slice(0, end + 1);
}

/** A committed file's text, or '' when there is none. */
export function readIfExists(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

if (import.meta.main) {
  const file = process.argv[2];
  const model = file ? operationsOf(JSON.parse(readFileSync(file, 'utf8'))) : loadModel();
  process.stdout.write(`${JSON.stringify(model, null, 2)}\n`);
}
