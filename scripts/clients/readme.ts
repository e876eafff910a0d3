/**
 * The parts of every clients/<lang>/README.md that must not drift from the code, written by `npm run clients`
 * (generate.ts calls writeReadmes) or alone by `node scripts/clients/readme.ts` (no JVM, no toolchain):
 *
 *   1. the method table, between `<!-- methods:start -->` and `<!-- methods:end -->`: one row per operation of
 *      clients/<lang>/methods.json (the manifest each language's own test checks against its package), with the
 *      HTTP operation, its parameters and its result as clients/openapi.sdk.json states them;
 *   2. the README's code examples: every fenced block in the language's tag (but those under `## Install` and
 *      `## Quickstart`, which package.sh runs whole), each in a function of its own, between the
 *      `readme-examples:start` and `readme-examples:end` lines of a file that the language's conformance.sh compiles
 *      or runs (readme-examples.ts says which, per language).
 *      What the blocks use but do not define (a client, ids, a transfer) is declared above the markers, by hand.
 *
 * test/clients/readme.test.ts fails when a committed README or examples file differs from what this writes.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deref, type Json } from './layers/model.ts';
import { EXAMPLES, type Examples } from './readme-examples.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const CLIENTS = join(ROOT, 'clients');
export { EXAMPLES };

const START = /<!-- methods:start -->/;
const END = /<!-- methods:end -->/;

/** Replaces the lines strictly between the line matching `start` and the line matching `end`. */
export function replaceBetween(text: string, start: RegExp, end: RegExp, body: string, where: string): string {
  const lines = text.split('\n');
  const from = lines.findIndex((line) => start.test(line));
  const to = lines.findIndex((line, i) => i > from && end.test(line));
  if (from < 0 || to < 0) throw new Error(`${where}: no ${start.source} … ${end.source} lines`);
  return [...lines.slice(0, from + 1), ...(body === '' ? [] : body.split('\n')), ...lines.slice(to)].join('\n');
}

function schemaName(doc: Json, schema: Json): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').at(-1);
  const items = deref(doc, schema).properties?.data?.items;
  if (items) return `list of ${schemaName(doc, items)}`;
  return schema.type ?? '';
}

const PAGING = new Set(['limit', 'starting_after', 'ending_before']);

/** The API's inputs of one operation, as the wire names them: path, then query, then body; `?` when optional. */
function inputs(doc: Json, op: Json): string {
  const params = (op.parameters ?? []).map((p: Json) => deref(doc, p));
  const named = (list: Json[]) => list.map((p: Json) => `\`${p.name}${p.required ? '' : '?'}\``);
  const parts = [...named(params.filter((p: Json) => p.in === 'path'))];
  // A list's paging (…) as model.ts tells a list: by `starting_after`; another read's `limit` (the audit chain's,
  // beside its `after`) is one of its parameters.
  const list = params.some((p: Json) => p.name === 'starting_after');
  const query = params.filter((p: Json) => p.in === 'query' && !(list && PAGING.has(p.name)));
  if (query.length > 0) parts.push(`query ${named(query).join(', ')}`);
  if (list) parts.push('…');
  const body = deref(doc, op.requestBody?.content?.['application/json']?.schema);
  if (body?.properties) {
    const required = new Set(body.required ?? []);
    const fields = Object.keys(body.properties).map((name) => `\`${name}${required.has(name) ? '' : '?'}\``);
    parts.push(`body ${fields.join(', ')}`);
  }
  return parts.join('; ') || '—';
}

/** The method table of one language: a row per entry of its methods.json, in the manifest's order. */
export function methodTable(clients: string, lang: string): string {
  const doc = JSON.parse(readFileSync(join(clients, 'openapi.sdk.json'), 'utf8'));
  const manifest: Record<string, string[]> = JSON.parse(readFileSync(join(clients, lang, 'methods.json'), 'utf8'));
  const ops = new Map<string, { method: string; path: string; op: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (op?.operationId) ops.set(op.operationId, { method: method.toUpperCase(), path, op });
    }
  }
  const rows = Object.entries(manifest).map(([id, methods]) => {
    const found = ops.get(id);
    if (!found) throw new Error(`clients/${lang}/methods.json: ${id} is not an operation of the SDK view`);
    const response = Object.entries<Json>(found.op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
    const result = schemaName(doc, deref(doc, response)?.content?.['application/json']?.schema);
    const names = methods.map((m) => `\`${m}\``).join(', ');
    const call = `\`${found.method} ${found.path}\``;
    return `| ${names} | ${call} | ${inputs(doc, found.op)} | ${result ? `\`${result}\`` : '—'} |`;
  });
  return ["| method | HTTP operation | inputs (the API's names) | result |", '|---|---|---|---|', ...rows].join('\n');
}

/**
 * The README's blocks in `tag`, in order, but those of its `## Install` (build files, e.g. Kotlin's
 * build.gradle.kts) and `## Quickstart` (whole programs, which package.sh runs).
 */
export function readmeBlocks(readme: string, tag: string): string[] {
  const blocks: string[] = [];
  const lines = readme.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('## ')) section = lines[i]!;
    if (lines[i] !== `\`\`\`${tag}`) continue;
    const end = lines.findIndex((line, j) => j > i && line === '```');
    if (!NOT_EXAMPLES.includes(section)) blocks.push(lines.slice(i + 1, end).join('\n'));
    i = end;
  }
  return blocks;
}

const NOT_EXAMPLES = ['## Install', '## Quickstart'];

/** The marked region of a language's examples file: each README block in a function of its own. */
export function examplesRegion(readme: string, spec: Examples): string {
  const hoisted = new Set<string>();
  const functions = readmeBlocks(readme, spec.tag).map((block, i) => {
    const body = block
      .split('\n')
      .filter((line) => !(spec.hoist?.test(line) && hoisted.add(line)))
      .map((line) => (line === '' ? '' : `${spec.indent}${line}`));
    return [spec.open(i + 1), ...body, ...(spec.close ? [spec.close] : [])].join('\n');
  });
  return [...hoisted, ...(hoisted.size > 0 ? [''] : []), functions.join('\n\n')].join('\n');
}

/** What README.md (and the examples file, when the language has one) of `lang` should be: path → text. */
export function expectedFiles(clients: string, lang: string): Map<string, string> {
  const files = new Map<string, string>();
  const readmePath = join(clients, lang, 'README.md');
  const readme = replaceBetween(
    readFileSync(readmePath, 'utf8'),
    START,
    END,
    methodTable(clients, lang),
    `clients/${lang}/README.md`,
  );
  files.set(readmePath, readme);
  const spec = EXAMPLES[lang];
  if (spec) {
    const path = join(clients, lang, spec.file);
    const region = examplesRegion(readme, spec);
    const where = `clients/${lang}/${spec.file}`;
    files.set(
      path,
      replaceBetween(readFileSync(path, 'utf8'), /readme-examples:start/, /readme-examples:end/, region, where),
    );
  }
  return files;
}

/** Writes every language's README table and examples file in place. */
export function writeReadmes(clients: string, langs: string[]): void {
  for (const lang of langs) {
    for (const [path, text] of expectedFiles(clients, lang)) writeFileSync(path, text);
  }
}

if (import.meta.main) {
  const all = readdirSync(CLIENTS).filter((lang) => existsSync(join(CLIENTS, lang, 'methods.json')));
  writeReadmes(CLIENTS, process.argv.length > 2 ? process.argv.slice(2) : all);
}
