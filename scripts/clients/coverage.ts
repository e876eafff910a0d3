/**
 * `npm run clients:coverage`: does every language's hand-written layer have a method for every operation?
 *
 * The operations are those of the SDK view (clients/openapi.sdk.json) except the ones tagged `Operations` or
 * `Documentation` (health and readiness probes, the OpenAPI document itself): they are for load balancers and
 * tooling, not for an application, and stay reachable through each language's generated API and raw request.
 * Each language (a clients/<lang>/ with a client.json) declares its methods in clients/<lang>/methods.json:
 *   {"<operationId>": ["<resource>.<method>", …], …}
 * with the names as a user of that language writes them; the language's own tests check that every name exists in
 * its code, so this script only has to compare the manifests with the document. A language is full when
 *   - every operation has at least one method,
 *   - every list operation (one that takes `starting_after`) has at least two (`list` iterates every page,
 *     `list_page` returns one: clients/README.md),
 *   - and the manifest names no operation the document does not have (a method left behind by a removed one).
 * Prints one line per language, then `N of N operations in 9 of 9 languages` (the languages that are full); the
 * exit code is 1 when any language is not.
 *
 *   node scripts/clients/coverage.ts [--clients <dir>]   (default: clients/ of this repository)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Tags whose operations are not client operations (see above). */
const NOT_FOR_CLIENTS = new Set(['Operations', 'Documentation']);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  id: string;
  list: boolean;
}

interface Parameter {
  name?: string;
}

interface OperationObject {
  operationId?: string;
  tags?: string[];
  parameters?: Parameter[];
}

interface LanguageCoverage {
  lang: string;
  covered: number;
  /** What keeps it from being full, one line each; empty when full. */
  problems: string[];
}

interface Coverage {
  operations: Operation[];
  excluded: string[];
  languages: LanguageCoverage[];
}

function operationsOf(document: { paths: Record<string, Record<string, OperationObject>> }): {
  operations: Operation[];
  excluded: string[];
} {
  const operations: Operation[] = [];
  const excluded: string[] = [];
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      if ((op.tags ?? []).some((tag) => NOT_FOR_CLIENTS.has(tag))) excluded.push(op.operationId);
      else
        operations.push({
          id: op.operationId,
          list: (op.parameters ?? []).some((p) => p.name === 'starting_after'),
        });
    }
  }
  return { operations, excluded };
}

function readManifest(path: string): Record<string, unknown> | string {
  if (!existsSync(path)) return 'no methods.json';
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return `methods.json is not JSON: ${(error as Error).message}`;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'methods.json is not an object';
  return parsed as Record<string, unknown>;
}

function languageCoverage(lang: string, dir: string, operations: Operation[]): LanguageCoverage {
  const manifest = readManifest(join(dir, 'methods.json'));
  if (typeof manifest === 'string') return { lang, covered: 0, problems: [manifest] };
  const problems: string[] = [];
  let covered = 0;
  const missing: string[] = [];
  for (const op of operations) {
    const names = manifest[op.id];
    const methods = Array.isArray(names) ? names.filter((n) => typeof n === 'string' && n.length > 0) : [];
    if (methods.length === 0) missing.push(op.id);
    else if (op.list && methods.length < 2) problems.push(`${op.id}: a list needs two methods (every page, one page)`);
    else covered++;
  }
  if (missing.length > 0) problems.unshift(`missing ${missing.length}: ${missing.join(', ')}`);
  const known = new Set(operations.map((op) => op.id));
  const unknown = Object.keys(manifest).filter((id) => !known.has(id));
  if (unknown.length > 0) problems.push(`not in the SDK view: ${unknown.join(', ')}`);
  return { lang, covered, problems };
}

function coverage(clientsDir: string): Coverage {
  const document = JSON.parse(readFileSync(join(clientsDir, 'openapi.sdk.json'), 'utf8'));
  const { operations, excluded } = operationsOf(document);
  const languages = readdirSync(clientsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(clientsDir, entry.name, 'client.json')))
    .map((entry) => entry.name)
    .sort()
    .map((lang) => languageCoverage(lang, join(clientsDir, lang), operations));
  return { operations, excluded, languages };
}

function report(result: Coverage): { text: string; full: boolean } {
  const total = result.operations.length;
  const lines = [`# ${total} operations in clients/openapi.sdk.json (not counted: ${result.excluded.join(', ')})`];
  for (const lang of result.languages) {
    const mark = lang.problems.length === 0 ? 'full' : 'NOT FULL';
    lines.push(`${lang.lang.padEnd(11)} ${String(lang.covered).padStart(3)} of ${total}  ${mark}`);
    for (const problem of lang.problems) lines.push(`    ${problem}`);
  }
  const full = result.languages.filter((lang) => lang.problems.length === 0).length;
  lines.push(`${total} of ${total} operations in ${full} of ${result.languages.length} languages`);
  return { text: `${lines.join('\n')}\n`, full: full === result.languages.length && result.languages.length > 0 };
}

const { values } = parseArgs({ options: { clients: { type: 'string' } } });
const { text, full } = report(coverage(resolve(values.clients ?? join(import.meta.dirname, '../../clients'))));
process.stdout.write(text);
process.exitCode = full ? 0 : 1;
