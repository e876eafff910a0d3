#!/usr/bin/env node
/**
 * Issue 38, "Split by role": src/platform/ becomes the core (the request pipeline and the mechanisms every module
 * shares); its modules move to src/modules/<name>/; db/ gets one folder per backend, as Kysely lays out its dialects.
 *
 * Run from the repository's root, on a clean tree: `node tools/split-by-role.mjs` (`--dry-run` prints the plan and
 * changes nothing). It is idempotent: a second run finds nothing to move and nothing to rewrite.
 *
 * What it does, in order:
 *  1. plans the moves: every file of the repository (tracked, or new and not ignored) whose path MOVES maps elsewhere;
 *     a file it does not know stays where it is;
 *  2. points a module's import of another module's insides at that module's index.ts when the index re-exports
 *     those names from that file; then rewrites every relative specifier of every script of src/, test/, scripts/, bench/ and clients/ (import,
 *     import type, export … from, dynamic import(), declare module, require(), new URL('…', import.meta.url)) by
 *     resolving it from the file's old place to a path, mapping that path, and writing the path from the file's new
 *     place, so that a file it does not know (a new one on main) is rewritten too;
 *  3. rewrites the paths that text names: `src/…` anywhere, and the paths relative to src/ (`platform/…`, `db/…`) that
 *     the docs and the comments use, when MOVES maps them;
 *  4. rebuilds the map of docs/architecture.md (each entry under its new folder, the new folders described from
 *     FOLDERS) and replaces its section "The rules" with RULES;
 *  5. moves the files (`git mv` for tracked ones), removes the folders left empty, and lets biome sort the imports.
 *
 * Then: `node_modules/.bin/tsc --noEmit -p .`, `node_modules/.bin/biome check .`, and
 * `node --test test/docs/dependencies.test.ts test/docs/architecture.test.ts`. On a newer main, what it cannot do
 * alone shows there: a module that imports a name another module's index.ts does not re-export (add the name to
 * that index.ts, or import the index, on main, and run again from a clean checkout); a new folder the map does not
 * describe (the map says so in its line: add it to FOLDERS below).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { posix } from 'node:path';

/**
 * The mapping: [from, to]. A file is named whole; a folder ends in `/` and takes everything under it. A file's own
 * line wins over its folder's, and a longer folder over a shorter one. No `to` may be a `from` (idempotence).
 */
const MOVES = [
  // The outbox every module records its events in is handed to each by the core (Host.events, Host.sequencer): it
  // is core, as idempotency is. The events module keeps the API over it: the list, one event, the stream, the purge.
  ...['emit', 'numbering', 'sequencer', 'types', 'tables'].map((f) => [
    `src/platform/events/${f}.ts`,
    `src/platform/outbox/${f}.ts`,
  ]),
  ['src/platform/events/', 'src/modules/events/'],
  [
    'src/platform/migrations/2026-11-28T0200_event_stream_leases.ts',
    'src/modules/events/migrations/2026-11-28T0200_event_stream_leases.ts',
  ],

  // Webhooks: the public API (endpoints, deliveries, the fan-out) apart from the delivery engine.
  ['src/platform/webhooks/ssrf.ts', 'src/platform/ssrf.ts'], // Host.resolve: outbound requests' check, shared
  ...['attempt', 'claim', 'claims.repository', 'fair', 'processes', 'record', 'rounds', 'schedule', 'sign']
    .concat(['signing-secrets', 'worker'])
    .map((f) => [`src/platform/webhooks/${f}.ts`, `src/modules/webhooks/engine/${f}.ts`]),
  ['src/platform/metrics/webhooks.ts', 'src/modules/webhooks/engine/metrics.ts'],
  ...['endpoints', 'deliveries']
    .flatMap((r) => ['schema', 'routes', 'service', 'repository', 'view'].map((k) => `${r}.${k}`))
    .concat(['fan-out'])
    .map((f) => [`src/platform/webhooks/${f}.ts`, `src/modules/webhooks/api/${f}.ts`]),
  ['src/platform/webhooks/', 'src/modules/webhooks/'],
  ...['2026-11-22T1400_delivery_claim_index', '2026-11-25T1100_webhook_deliveries_pending_idx'].map((m) => [
    `src/platform/migrations/${m}.ts`,
    `src/modules/webhooks/migrations/${m}.ts`,
  ]),

  // The sandbox clock: the core reads an owner's time (clock.ts) and what comes due (due.ts) in every write; its
  // operations and its sweep are a module over them.
  ['src/platform/clock/index.ts', 'src/modules/clock/index.ts'],
  ['src/platform/clock/clock.routes.ts', 'src/modules/clock/clock.routes.ts'],

  ['src/platform/keys/', 'src/modules/keys/'],
  ['src/platform/metadata/', 'src/modules/metadata/'],
  ['src/platform/requests/', 'src/modules/requests/'],
  ...[
    '2026-11-25T0900_request_log',
    '2026-11-26T0900_request_log_count',
    '2026-11-26T1400_request_log_response',
    '2026-11-28T0210_request_log_query',
  ].map((m) => [`src/platform/migrations/${m}.ts`, `src/modules/requests/migrations/${m}.ts`]),

  // db/: a folder per backend; what both share stays in db/.
  ...['sqlite', 'sqlite-transaction', 'group-commit', 'node-sqlite', 'sqlite-lock', 'wal-sync', 'sqlite-checkpointer']
    .map((f) => `${f}.ts`)
    .concat(['sqlite-checkpoint-worker.mjs'])
    .map((f) => [`src/db/${f}`, `src/db/sqlite/${f}`]),
  ...['postgres', 'pg-transaction', 'pg-write'].map((f) => [`src/db/${f}.ts`, `src/db/postgres/${f}.ts`]),
];

/** The map's description of a folder the split creates, or of an entry whose old one no longer fits. */
const FOLDERS = {
  'src/platform/':
    'the core: the request pipeline and the mechanisms every module shares (http, operations, idempotency, auth, ' +
    'the outbox, secrets, docs, metrics, kit, the core migrations); it imports no module',
  'src/platform/outbox/':
    'the outbox every module records its events in, handed to each as Host.events: what happened, in order ' +
    '(served by modules/events/)',
  'src/platform/outbox/tables.ts': 'events and the event sequences',
  'src/platform/ssrf.ts': "outbound requests' check: the refused addresses, the injected resolver (Host.resolve)",
  'src/platform/migrations/':
    "the core's migrations (orgs and keys, idempotency, the outbox's events, secrets) and those that touch " +
    "several modules' tables at once; a module's own are in its migrations/",
  'src/modules/':
    'the modules, one folder each; its index.ts is its public face, the only file of it another module imports',
  'src/platform/clock/':
    "the sandbox clock's mechanism: each org's sandbox time, read by every write (clock.ts), and what comes due " +
    'as it moves (due.ts, declared by the modules)',
  'src/modules/clock/':
    'the sandbox clock (docs/api.md#the-sandbox-clock): its two operations and the sweep that runs what came due',
  'src/modules/events/':
    'events over the outbox: the list, one event, the live stream, the retention purge (docs/api.md#events)',
  'src/modules/events/purge.ts': 'retention (a hook deletes what refers to events first)',
  'src/modules/webhooks/api/': 'its API: endpoints, deliveries, the fan-out of numbered events to endpoints',
  'src/modules/webhooks/engine/': 'the delivery engine: processes, workers, rounds, the fair claim, attempts, signing',
  'src/modules/webhooks/engine/attempt.ts': 'one POST to the address that was checked (platform/ssrf.ts)',
  'src/db/sqlite/': 'SQLite (node:sqlite): its database, transaction, dialect and durability',
  'src/db/postgres/': 'PostgreSQL (pg): its database, transaction and pipelined write',
};

/** Sentences of docs/architecture.md the split makes wrong: [what it said, what it says]. */
const PROSE = [
  [
    'A module is a folder with an `index.ts` exporting `defineModule({ … })` and one line in `MODULES` (`modules.ts`):',
    'A module is a folder (`modules/<name>/`, or `products/<name>/` for a product) with an `index.ts` exporting\n' +
      '`defineModule({ … })`, its public face (what another module imports of it, and nothing else), and one line in\n' +
      '`MODULES` (`modules.ts`):',
  ],
];

/** docs/architecture.md's section "The rules", as the split makes them (.dependency-cruiser.cjs checks each). */
const RULES = `Dependencies point one way: the composition root (\`modules.ts\`, \`ops.ts\`, \`config.ts\`, \`app.ts\`) and \`cli/\` →
\`dashboard/\` → \`products/\` and \`modules/\` → \`platform/\` (the core) → \`db/\`. The core is the request pipeline and
the mechanisms every module shares (\`http/\`, \`operations/\`, \`idempotency/\`, \`auth/\`, \`outbox/\`, \`secrets/\`, \`docs/\`,
\`metrics/\`, \`kit/\`, \`module.ts\`): it imports no module, no product and nothing of the root. A module (each folder of
\`modules/\` and \`products/\`, and the dashboard) imports another only through that module's \`index.ts\`, its public
face. Inside the core, \`kit/\` is at the bottom (it imports only \`kit/\`) and \`http/\` imports only \`kit/\`; \`db/\`
imports nothing above it; \`modules/events/\` imports nothing from \`modules/webhooks/\` (the fan-out is handed to the
outbox). Only \`ledger/\` imports \`ledger/post.ts\`, so a movement of money that skipped a check cannot be written
(below). No import circle exists anywhere in \`src/\`, and only \`db/\` (and the migrations) imports a database driver.
These are dependency-cruiser's rules (\`.dependency-cruiser.cjs\`), checked in \`npm test\` by
\`test/docs/dependencies.test.ts\` with no exception. Paths below are relative to \`src/\` unless they start with another
top-level folder.`;

const DRY = process.argv.includes('--dry-run');
const SCRIPT = /\.(?:[cm]?ts|[cm]?js)$/;
const SCRIPT_ROOTS = ['src/', 'test/', 'scripts/', 'bench/', 'clients/'];
// Text whose paths are rewritten: the docs and the scripts (bench/'s reports are measurements of their day: left).
const TEXT = (p) =>
  (SCRIPT.test(p) && SCRIPT_ROOTS.some((r) => p.startsWith(r))) ||
  /^(?:docs\/[^/]+|README|SECURITY|clients\/README)\.md$/.test(p) ||
  p.endsWith('.py');

const exact = new Map(MOVES.filter(([from]) => !from.endsWith('/')));
const folders = MOVES.filter(([from]) => from.endsWith('/')).sort((a, b) => b[0].length - a[0].length);
for (const [, to] of MOVES)
  if (mapPath(to) !== to) throw new Error(`${to} is a target and matched again: the mapping is not idempotent`);

/** Where a path goes: a file, or a folder (with or without its final `/`). */
function mapPath(path) {
  if (exact.has(path)) return exact.get(path);
  const dir = path.endsWith('/') ? path : `${path}/`;
  for (const [from, to] of folders) {
    if (path.startsWith(from)) return to + path.slice(from.length);
    if (dir === from) return path.endsWith('/') ? to : to.slice(0, -1);
  }
  return path;
}

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const tracked = new Set(git('ls-files', '-z').split('\0').filter(Boolean));
const files = git('ls-files', '-z', '--cached', '--others', '--exclude-standard')
  .split('\0')
  .filter((p) => p !== '' && existsSync(p) && statSync(p).isFile() && !p.startsWith('tools/'));
const moves = files.map((p) => [p, mapPath(p)]).filter(([a, b]) => a !== b);
const newOf = new Map(moves);
for (const [from, to] of moves)
  if (existsSync(to)) throw new Error(`${from} → ${to}: the target exists; move or merge it by hand first`);

// 2. Specifiers, resolved from the old place and written from the new one.
const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bdeclare\s+module\s+|\bnew\s+URL\s*\(\s*)(['"])(\.\.?\/[^'"\n]*)\2(\s*,\s*import\.meta\.url)?/g;
function rewriteSpecifiers(file, text) {
  const dir = posix.dirname(file);
  const newDir = posix.dirname(newOf.get(file) ?? file);
  return text.replace(SPECIFIER, (all, head, quote, spec, metaUrl) => {
    if (head.startsWith('new') && metaUrl === undefined) return all; // a URL, not a file of ours
    const slash = spec.endsWith('/') ? '/' : '';
    const target = posix.normalize(posix.join(dir, spec)) + slash;
    const mapped = mapPath(target);
    if (mapped === target && newDir === dir) return all;
    let next = posix.relative(newDir, mapped.replace(/\/$/, '')) + slash;
    if (!next.startsWith('.')) next = `./${next}`;
    return next === spec ? all : `${head}${quote}${next}${quote}${metaUrl ?? ''}`;
  });
}

// 2a. Through the index: a module (a folder of modules/ or products/, or the dashboard) that imports another module's
// insides imports its index.ts instead, when that index re-exports every one of those names from that very file (the
// rule a-module-imports-another-only-through-its-index; a new file written against the old layout gets it for free).
const moduleOf = (p) => /^src\/(?:modules|products)\/[^/]+\/|^src\/dashboard\//.exec(p)?.[0];
const oldOf = new Map(files.map((p) => [newOf.get(p) ?? p, p]));
const faces = new Map(); // an index's path → (a file it re-exports from → the names it re-exports from it)
function faceOf(index) {
  if (!faces.has(index)) {
    const offered = new Map();
    const text = readFileSync(index, 'utf8');
    for (const [, list, spec] of text.matchAll(
      /\bexport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.\.?\/[^'"]+)['"]/g,
    )) {
      const target = posix.normalize(posix.join(posix.dirname(index), spec));
      if (!offered.has(target)) offered.set(target, new Set());
      for (const part of list.split(',')) {
        const name = part.trim().replace(/^type\s+/, '');
        if (name !== '' && !/\sas\s/.test(name)) offered.get(target).add(name);
      }
    }
    faces.set(index, offered);
  }
  return faces.get(index);
}
const NAMED = /(\b(?:import|export)\s+(?:type\s+)?\{)([^}]*)(\}\s*from\s*)(['"])(\.\.?\/[^'"\n]+)\4/g;
function throughIndex(file, text) {
  const from = moduleOf(newOf.get(file) ?? file);
  if (from === undefined) return text;
  const dir = posix.dirname(file);
  return text.replace(NAMED, (all, head, list, tail, quote, spec) => {
    const target = posix.normalize(posix.join(dir, spec));
    const to = moduleOf(mapPath(target));
    if (to === undefined || to === from || to === 'src/dashboard/' || mapPath(target) === `${to}index.ts`) return all;
    const index = oldOf.get(`${to}index.ts`);
    if (index === undefined) return all;
    const names = list
      .split(',')
      .map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      )
      .filter((name) => name !== '');
    const offered = faceOf(index).get(target);
    if (offered === undefined || !names.every((name) => offered.has(name))) return all;
    let next = posix.relative(dir, index);
    if (!next.startsWith('.')) next = `./${next}`;
    console.log(`  ${file}: ${spec} → ${next} (through the index)`);
    return `${head}${list}${tail}${quote}${next}${quote}`;
  });
}

// 3. Paths in text: `src/…`, and `platform/…`, `db/…`, … (relative to src/) when they name something that moves.
const PATH = /(?<![\w@./-])((?:src\/)?(?:platform|db|products|dashboard|modules)\/[\w@.-]*(?:\/[\w@.-]+)*\/?)/g;
function rewritePaths(text) {
  return text.replace(PATH, (all) => {
    const bare = all.replace(/[.]+$/, ''); // a sentence's full stop
    const rest = all.slice(bare.length);
    const full = bare.startsWith('src/') ? bare : `src/${bare}`;
    const mapped = mapPath(full);
    if (mapped === full) return all;
    return (bare.startsWith('src/') ? mapped : mapped.slice(4)) + rest;
  });
}

// 4. docs/architecture.md: the map, rebuilt under the new folders; the rules.
function rebuildMap(page, newFiles) {
  const lines = page.split('\n');
  const start = lines.findIndex((l, i) => l === 'src/' && lines[i - 1]?.startsWith('```'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('```'));
  if (start < 0 || end < 0) throw new Error('docs/architecture.md: no map (a fenced block whose first line is src/)');
  const block = lines.slice(start + 1, end);
  const counts = new Map();
  for (const l of block) {
    const gap = / {2,}(?=\S)/.exec(l.trimStart());
    if (gap) {
      const at = l.length - l.trimStart().length + gap.index + gap[0].length;
      counts.set(at, (counts.get(at) ?? 0) + 1);
    }
  }
  const column = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  // Parse: entries (a folder, or one or more names of one folder) with their description lines.
  const entries = [];
  const stack = [{ indent: -1, path: 'src/' }];
  block.forEach((l, i) => {
    const indent = l.length - l.trimStart().length;
    if (l.trim() === '' || indent >= column) {
      entries.at(-1).desc.push(l.slice(column));
      return;
    }
    const name = l.trim().split(/ {2,}/)[0];
    const first = l.trim().slice(name.length).trim();
    while (stack.at(-1).indent >= indent) stack.pop();
    const parent = stack.at(-1).path;
    const entry = { parent, names: name.split(', '), desc: [first], order: i };
    entries.push(entry);
    if (name.endsWith('/')) stack.push({ indent, path: parent + name });
  });
  // Relocate: a folder to where its path maps, each file name to its file's new folder.
  const expand = (n) => {
    const m = /^(.*?)\{([^{}]*)\}(.*)$/.exec(n);
    return m ? m[2].split(',').map((p) => `${m[1]}${p}${m[3]}`) : [n];
  };
  const dirs = new Map(); // path → { desc, order }
  const placed = []; // { dir, names, desc, order }
  const describe = (path, desc) => (FOLDERS[path] ? wrap(FOLDERS[path], 120 - column) : desc.map(rewritePaths));
  for (const e of entries) {
    if (e.names.length === 1 && e.names[0].endsWith('/')) {
      const to = mapPath(e.parent + e.names[0]);
      if (!dirs.has(to)) dirs.set(to, { desc: describe(to, e.desc), order: e.order });
      continue;
    }
    const groups = new Map();
    for (const name of e.names) {
      const old = e.parent + expand(name)[0];
      const to = mapPath(old);
      const dir = posix.dirname(to) + '/';
      const renamed = posix.basename(to) !== posix.basename(old);
      if (renamed && name.includes('{')) throw new Error(`map: ${name} is renamed and braced; list it by hand`);
      if (!groups.has(dir)) groups.set(dir, []);
      groups.get(dir).push(renamed ? posix.basename(to) : name);
    }
    for (const [dir, names] of groups)
      placed.push({ dir, names, desc: describe(dir + expand(names[0])[0], e.desc), order: e.order });
  }
  // Every folder of the new tree is on the map: a new one takes the place of its first entry.
  const actual = new Set();
  for (const f of newFiles)
    if (f.startsWith('src/'))
      for (let d = posix.dirname(f); d !== 'src' && d !== '.'; d = posix.dirname(d)) actual.add(`${d}/`);
  const firstInside = (dir) =>
    Math.min(
      ...placed.filter((p) => p.dir.startsWith(dir)).map((p) => p.order),
      ...[...dirs].filter(([d]) => d !== dir && d.startsWith(dir)).map(([, v]) => v.order),
    );
  for (const dir of [...actual].sort((a, b) => a.length - b.length))
    if (!dirs.has(dir))
      dirs.set(dir, {
        desc: wrap(FOLDERS[dir] ?? '(a new folder: describe it in FOLDERS of tools/split-by-role.mjs)', 120 - column),
        order: firstInside(dir),
      });
  for (const dir of dirs.keys()) if (!actual.has(dir)) dirs.delete(dir); // emptied by the split
  // Render, each folder's entries in their old order.
  const out = ['src/'];
  const render = (dir, depth) => {
    const children = [
      ...placed.filter((p) => p.dir === dir).map((p) => ({ ...p, folder: null })),
      ...[...dirs]
        .filter(([d]) => d !== dir && posix.dirname(d) + '/' === dir)
        .map(([d, v]) => ({ names: [`${posix.basename(d)}/`], ...v, folder: d })),
    ].sort((a, b) => a.order - b.order);
    for (const c of children) {
      const name = ' '.repeat(2 * depth) + c.names.join(', ');
      const [first = '', ...more] = c.desc;
      if (first === '') out.push(name);
      else if (name.length + 2 <= column) out.push(name.padEnd(column) + first);
      else out.push(name, ' '.repeat(column) + first);
      for (const m of more) out.push(m === '' ? '' : ' '.repeat(column) + m);
      if (c.folder) render(c.folder, depth + 1);
    }
  };
  render('src/', 1);
  lines.splice(start, end - start, ...out);
  return lines.join('\n');
}

/** Words into lines of at most `width` characters. */
function wrap(text, width) {
  const lines = [''];
  for (const word of text.split(' '))
    if (lines.at(-1) === '') lines[lines.length - 1] = word;
    else if (lines.at(-1).length + 1 + word.length <= width) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  return lines;
}

function replaceRules(page) {
  for (const [before, after] of PROSE) page = page.replace(before, after);
  const at = page.indexOf('## The rules\n');
  const next = page.indexOf('\n## ', at + 1);
  if (at < 0 || next < 0) return page;
  return `${page.slice(0, at)}## The rules\n\n${RULES}\n${page.slice(next)}`;
}

// Plan, then write.
const newFiles = files.map((p) => newOf.get(p) ?? p);
const writes = [];
for (const file of files) {
  if (!TEXT(file)) continue;
  const before = readFileSync(file, 'utf8');
  let after = SCRIPT.test(file) ? rewriteSpecifiers(file, throughIndex(file, before)) : before;
  if (file === 'docs/architecture.md') after = replaceRules(rebuildMap(after, newFiles));
  after = file === 'docs/architecture.md' ? rewriteProse(after) : rewritePaths(after);
  if (after !== before) writes.push([file, after]);
}

/** The page's prose outside the map (the map was rebuilt with its descriptions rewritten). */
function rewriteProse(page) {
  const lines = page.split('\n');
  const start = lines.findIndex((l, i) => l === 'src/' && lines[i - 1]?.startsWith('```'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('```'));
  return [
    ...lines.slice(0, start).map(rewritePaths),
    ...lines.slice(start, end),
    ...lines.slice(end).map(rewritePaths),
  ].join('\n');
}

console.log(`${moves.length} files to move, ${writes.length} files to rewrite`);
if (DRY) {
  for (const [a, b] of moves) console.log(`  ${a} → ${b}`);
  for (const [f] of writes) console.log(`  rewrite ${f}`);
  process.exit(0);
}
for (const [file, text] of writes) writeFileSync(file, text);
for (const [from, to] of moves) {
  mkdirSync(posix.dirname(to), { recursive: true });
  if (tracked.has(from)) git('mv', from, to);
  else renameSync(from, to);
}
// Folders the moves left empty.
const emptied = [...new Set(moves.map(([from]) => posix.dirname(from)))].sort((a, b) => b.length - a.length);
for (let dir of emptied)
  while (dir.startsWith('src/') && existsSync(dir) && readdirSync(dir).length === 0) {
    rmdirSync(dir);
    dir = posix.dirname(dir);
  }
// The import lists, sorted again (a path that changed can change their order) and formatted, by the project's biome.
const touched = [...new Set([...writes.map(([f]) => newOf.get(f) ?? f), ...moves.map(([, to]) => to)])].filter(
  (f) => SCRIPT.test(f) && existsSync(f),
);
if (touched.length > 0 && existsSync('node_modules/.bin/biome'))
  try {
    execFileSync('node_modules/.bin/biome', ['check', '--write', '--no-errors-on-unmatched', ...touched], {
      stdio: 'inherit',
    });
  } catch {
    console.error('biome left something to fix by hand in the files above');
  }
console.log('done: check with `node_modules/.bin/tsc --noEmit -p .`, `node_modules/.bin/biome check .` and');
console.log('`node --test test/docs/dependencies.test.ts test/docs/architecture.test.ts`');
