/**
 * docs/architecture.md names files and folders: its map of src/ (a tree, each entry under the folders above it) and
 * every path in its prose and examples. Each must exist, so that a file that moves or goes fails here until the page
 * follows it; and every folder of src/ must be on the map, so that a new room is not left out of it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const PAGE = join(ROOT, 'docs/architecture.md');
const text = readFileSync(PAGE, 'utf8');
const lines = text.split('\n');

/** Every file and folder of the repository (not dependencies, not dot-folders), as paths from its root. */
function tree(dir = '', out: { files: string[]; dirs: string[] } = { files: [], dirs: [] }) {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      out.dirs.push(path);
      tree(path, out);
    } else out.files.push(path);
  }
  return out;
}
const REPO = tree();
const ALL = [...REPO.files, ...REPO.dirs];

/** `a.{b,c}.ts` → `a.b.ts`, `a.c.ts` (one level of braces, as the page writes a folder's resources). */
function expand(name: string): string[] {
  const match = /^(.*?)\{([^{}]*)\}(.*)$/.exec(name);
  return match === null ? [name] : match[2]!.split(',').flatMap((part) => expand(`${match[1]}${part}${match[3]}`));
}

interface Named {
  name: string;
  line: number;
  link?: true;
}

/**
 * The map: the fenced block that starts with `src/`. A line's name (or names, `a.ts, b.ts`) sits at its indentation,
 * under the folders above it; its description starts further right and may go on over the next lines.
 */
function readMap(): { entries: { path: string; line: number }[]; descriptions: Named[] } {
  const start = lines.findIndex((line, i) => line === 'src/' && lines[i - 1]?.startsWith('```'));
  assert.ok(start > 0, 'the page has a map: a fenced block whose first line is src/');
  const end = lines.findIndex((line, i) => i > start && line.startsWith('```'));
  const block = lines.slice(start, end);
  // The column where descriptions start: the most common one after a name and two or more spaces.
  const columns = new Map<number, number>();
  for (const line of block) {
    const gap = / {2,}(?=\S)/.exec(line.trimStart());
    if (gap !== null) {
      const at = line.length - line.trimStart().length + gap.index + gap[0].length;
      columns.set(at, (columns.get(at) ?? 0) + 1);
    }
  }
  const column = [...columns].sort((a, b) => b[1] - a[1])[0]![0];
  const entries: { path: string; line: number }[] = [];
  const descriptions: Named[] = [];
  const folders: { indent: number; name: string }[] = [];
  block.forEach((line, i) => {
    const indent = line.length - line.trimStart().length;
    const description = indent >= column ? line : line.trim().split(/ {2,}/).slice(1).join(' ');
    descriptions.push(...namesIn(description, start + i + 1));
    if (line.trim() === '' || indent >= column) return; // a description's next line
    const names = line.trim().split(/ {2,}/)[0]!.split(', ');
    while (folders.length > 0 && folders.at(-1)!.indent >= indent) folders.pop();
    const parent = folders.map((f) => f.name).join('');
    for (const name of names) {
      assert.match(name, /^[\w.@{},-]+\/?$/, `map line ${start + i + 1} is not "name  description": ${line}`);
      for (const one of expand(name)) entries.push({ path: `${parent}${one}`.replace(/\/$/, ''), line: start + i + 1 });
      if (name.endsWith('/')) folders.push({ indent, name });
    }
  });
  return { entries, descriptions };
}

// The page's example product (`billing`, its `invoices`) is what a new product would add: it does not exist.
const EXAMPLE = /billing|invoice/;
// A path-like word: folders and a name with an extension, or a folder ending in `/` when written as code.
const FILE = /(?<![\w@./:{}-])((?:[\w@.{},-]+\/)*[\w@{},-][\w@.{},-]*\.(?:ts|mjs|md|json|sh|toml|ya?ml))(?![\w/-])/g;
const FOLDER = /^(?:\.\.\/|\.\/)*([\w@.-]+\/)+$/;

/** The places a name the prose uses may be: from the repository's root, from src/, or the end of some path. */
function resolves(name: string): boolean {
  const clean = normalize(name.replace(/^(\.\.\/|\.\/)+/, '')).replace(/\/$/, '');
  return (
    existsSync(join(ROOT, clean)) ||
    existsSync(join(ROOT, 'src', clean)) ||
    ALL.some((path) => path === clean || path.endsWith(`/${clean}`))
  );
}

/** The path-like names of one line: link targets, names with an extension, and folders written as code. */
function namesIn(line: string, number: number): Named[] {
  const names: Named[] = [];
  for (const [, target] of line.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g))
    if (!/^[a-z]+:/.test(target!)) names.push({ name: target!, line: number, link: true });
  const withoutLinks = line.replace(/\]\([^)]*\)/g, ']');
  for (const [, name] of withoutLinks.matchAll(FILE))
    for (const one of expand(name!)) names.push({ name: one, line: number });
  for (const [, code] of withoutLinks.matchAll(/`([^`]+)`/g))
    if (FOLDER.test(code!)) names.push({ name: code!, line: number });
  return names.filter(({ name }) => !EXAMPLE.test(name));
}

/** Every path-like name of the page outside the map's names: prose, `code`, examples, links, the map's descriptions. */
function proseNames(): Named[] {
  const names: Named[] = [];
  let inMap = false;
  lines.forEach((line, i) => {
    if (line === 'src/' && lines[i - 1]?.startsWith('```')) inMap = true;
    else if (inMap && line.startsWith('```')) inMap = false;
    else if (!inMap) names.push(...namesIn(line, i + 1));
  });
  return [...names, ...readMap().descriptions];
}

test('every file and folder on the map of src/ exists where the map puts it', () => {
  const { entries } = readMap();
  assert.ok(entries.length > 100, `the map names ${entries.length} paths: is it still parsed?`);
  const missing = entries.filter(({ path }) => !existsSync(join(ROOT, path)));
  assert.deepEqual(
    missing.map(({ path, line }) => `line ${line}: ${path}`),
    [],
    'docs/architecture.md names these on its map; move them there too',
  );
});

test('every folder of src/ is on the map', () => {
  const onMap = new Set(readMap().entries.map(({ path }) => path));
  const folders = REPO.dirs.filter((dir) => dir === 'src' || dir.startsWith('src/'));
  assert.deepEqual(
    folders.filter((dir) => !onMap.has(dir)),
    [],
    'a folder of src/ the map of docs/architecture.md does not show',
  );
});

test('every path the prose, the examples and the links name exists', () => {
  const names = proseNames();
  assert.ok(names.length > 50, `the prose names ${names.length} paths: is it still read?`);
  const missing = names.filter(({ name, link }) => (link ? !existsSync(join(ROOT, 'docs', name)) : !resolves(name)));
  assert.deepEqual(
    missing.map(({ name, line }) => `line ${line}: ${name}`),
    [],
    'docs/architecture.md names these, and no such file or folder exists',
  );
});

// Files are split by meaning, not by length (the dependency rules of dependencies.test.ts keep the splits honest); a
// file past ~250 lines still needs a reason, written here next to its name.
const LONG_BECAUSE: Record<string, string> = {
  'src/platform/kit/redact.ts':
    'redaction by shape (text) and by field (records, bodies, queries) share one compiled set of registered shapes ' +
    'and one depth-bounded walk; split, each half would re-read the registry the other compiles',
  'src/db/sqlite/durable-reads.ts':
    'one state machine: every transition (before a COMMIT, a sync starting and ending, a long read holding a ' +
    'snapshot and letting it go) reads and changes the same current, pending, spare and exposed fields, and its ' +
    'promises (a read never goes back; an answered write is read) hold only across all of them',
};

test('a TypeScript file of src/ past 250 lines has a reason', () => {
  const long = tree()
    .files.filter((path) => path.startsWith('src/') && path.endsWith('.ts'))
    .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').trimEnd().split('\n').length }))
    .filter(({ path, lines }) => lines > 250 && LONG_BECAUSE[path] === undefined);
  assert.deepEqual(long, [], 'split these by meaning, or say in LONG_BECAUSE why one file holds it all');
});

/**
 * Where the page says what a file holds, "`Name` (`path`)", the file defines it: an `export const|function|class|
 * type|interface` of that name, not a re-export, so that the page names the file a reader should open.
 */
test('each "`Name` (`path`)" of the page is defined in that file', () => {
  const said = [...text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`\s*\(`((?:src\/|test\/)?[\w/.-]+\.ts)`\)/g)];
  assert.ok(said.length >= 8, `the page says where ${said.length} names are: is it still read?`);
  const wrong = said.filter(([, name, path]) => {
    const file = [join(ROOT, path!), join(ROOT, 'src', path!)].find((p) => existsSync(p));
    const definition = new RegExp(`^export (?:async )?(?:const|function|class|type|interface) ${name}\\b`, 'm');
    return file === undefined || !definition.test(readFileSync(file, 'utf8'));
  });
  assert.deepEqual(
    wrong.map(([said]) => said),
    [],
    'docs/architecture.md places these where they are not defined',
  );
});

/**
 * Every code block of the page is an excerpt of a file the type check compiles, named in the comment above it
 * (`<!-- excerpt: src/… -->`): each of its lines stands, in that order, in that file. A signature that changes fails
 * here until the page shows the new one; a block without a source is refused (a shape the compiler never saw).
 */
test('every code block of the page is an excerpt of the source file it names, in order', () => {
  const blocks = [...text.matchAll(/(?:<!-- excerpt: ([\w/.-]+) -->\n)?```(\w*)\n([\s\S]*?)```/g)].filter(
    ([, , lang]) => lang === 'ts',
  );
  assert.ok(blocks.length >= 3, `the page shows ${blocks.length} TypeScript blocks: is it still read?`);
  const wrong: string[] = [];
  for (const [block, source, , code] of blocks) {
    if (source === undefined) {
      wrong.push(`a block without a source: ${block.slice(0, 60)}`);
      continue;
    }
    const file = readFileSync(join(ROOT, source), 'utf8').split('\n');
    let at = 0;
    for (const line of code!.split('\n').filter((l) => l.trim() !== '')) {
      const found = file.findIndex((l, i) => i >= at && l.trim() === line.trim());
      if (found === -1) {
        wrong.push(`${source}: no longer has, in this order: ${line.trim()}`);
        break;
      }
      at = found + 1;
    }
  }
  assert.deepEqual(wrong, [], 'docs/architecture.md shows code its files no longer have');
});
