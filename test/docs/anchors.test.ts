/**
 * The code's comments and the project's pages point at the project's own docs, and every pointer lands. The product
 * contract lives outside this repository, so nothing here may cite it (`CONTRACT`, or a section sign and a number not
 * an RFC's); a rule a comment relies on is stated in docs/api.md, and cited as `docs/api.md#<heading's anchor>`. Each
 * such anchor, in code or in a page's links, must be a heading of the page it names, under GitHub's slug rules
 * (test/helpers/markdown-anchors.ts), so that a renamed heading fails here until its citations follow it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { anchorsOf } from '../helpers/markdown-anchors.ts';

const ROOT = join(import.meta.dirname, '../..');
const CODE = ['src', 'test', 'scripts', 'bench', 'clients'];
const PAGES = ['README.md', 'SECURITY.md', 'docs', 'clients/README.md'];
/** Not ours to write: generator output, dependencies, build output. */
const SKIP = new Set(['node_modules', 'generated', 'target', 'vendor', 'build', 'dist']);

/** Every file under these paths (files or folders, from the root) whose name ends so, as paths from the root. */
function files(paths: string[], ending: RegExp): string[] {
  return paths.flatMap((path) => {
    if (!statSync(join(ROOT, path)).isDirectory()) return ending.test(path) ? [path] : [];
    const entries = readdirSync(join(ROOT, path)).filter((name) => !name.startsWith('.') && !SKIP.has(name));
    return files(
      entries.map((name) => `${path}/${name}`),
      ending,
    );
  });
}

const code = files(CODE, /\.(ts|mjs|cjs|js|py|sh|go|java|kt|rs|rb|php|pm)$/).filter(
  (path) => path !== 'test/docs/anchors.test.ts',
);
const pages = files(PAGES, /\.md$/);

/** A citation of the contract: its name, or a section sign and a number that no RFC's name comes before. */
const CITES_CONTRACT = /CONTRACT|(?<!RFC \w+ )§\s*\d/;
/** In src/, which ships, not even in passing: "the contract's error model" points nowhere a reader can go. */
const NAMES_CONTRACT = /\bcontract\b|CONTRACT|(?<!RFC \w+ )§\s*\d/i;

test('no code and no page cites the contract, which users do not have', () => {
  const found: string[] = [];
  for (const path of [...code, ...pages]) {
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if ((path.startsWith('src/') ? NAMES_CONTRACT : CITES_CONTRACT).test(line))
          found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], `cite the docs/api.md section that states the rule instead:\n${found.join('\n')}`);
});

const anchors = new Map<string, Set<string> | null>();
function anchorsOfPage(path: string): Set<string> | null {
  if (!anchors.has(path)) {
    const full = join(ROOT, path);
    anchors.set(path, existsSync(full) ? new Set(anchorsOf(readFileSync(full, 'utf8'))) : null);
  }
  return anchors.get(path)!;
}

/**
 * Sections a comment already cites for a feature still being built, each removed when its section is written: an
 * entry whose anchor exists, or that nothing cites any more, fails the test, so that the list only shrinks.
 */
const PENDING = new Map<string, string>();
const pendingCited = new Set<string>();

/** Where a citation fails to land, or null when it lands. */
function miss(page: string, anchor: string): string | null {
  if (PENDING.has(`${page}#${anchor}`)) {
    pendingCited.add(`${page}#${anchor}`);
    return anchorsOfPage(page)?.has(anchor) ? `${page}#${anchor} exists now: remove it from PENDING` : null;
  }
  const known = anchorsOfPage(page);
  if (known === null) return `${page} does not exist`;
  return known.has(anchor) ? null : `${page} has no heading whose anchor is #${anchor}`;
}

/** A page cited by its path from the repository's root, as code and the pages' code blocks write it. */
const CITATION = /(?<![\w./-])((?:[\w-]+\/)*[\w.-]+\.md)#([\p{L}\p{N}_-]+)/gu;

test('every docs anchor the code (or a page, unlinked) cites is a heading of that page', () => {
  const broken: string[] = [];
  let cited = 0;
  for (const path of [...code, ...pages]) {
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [, page, anchor] of line.replace(/\]\([^)]*\)/g, ']').matchAll(CITATION)) {
        cited++;
        const why = miss(page!, anchor!);
        if (why !== null) broken.push(`${path}:${i + 1}: ${why}`);
      }
    });
  }
  assert.deepEqual(broken, [], broken.join('\n'));
  assert.ok(cited > 100, `the code cites docs by anchor ${cited} times: is it still read?`);
  const stale = [...PENDING.keys()].filter((citation) => !pendingCited.has(citation));
  assert.deepEqual(stale, [], 'PENDING lists a citation nothing makes any more: remove it');
});

test("every anchor in the pages' own links is a heading of the page it names", () => {
  const broken: string[] = [];
  for (const path of pages) {
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [, target, anchor] of line.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
        if (/^\w+:/.test(target!) || target!.startsWith('/')) continue; // another site, or a path on the server
        const page = target === '' ? path : relative(ROOT, join(ROOT, dirname(path), target!));
        if (!page.endsWith('.md')) continue;
        const why = miss(page, anchor!);
        if (why !== null) broken.push(`${path}:${i + 1}: ${why}`);
      }
    });
  }
  assert.deepEqual(broken, [], broken.join('\n'));
});
