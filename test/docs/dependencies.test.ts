/**
 * docs/architecture.md's layering, checked: dependency-cruiser applies the rules of .dependency-cruiser.cjs to every
 * import of src/ (type-only ones too), and a plain reading of the source finds any file outside db/ that asks which
 * database is in use. Each failure names the rule and the offending file, so that the fix is where it points.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** One line per violation: the rule, then the import (or the circle, walked from its first file). */
function describe(v: Violation): string {
  const path = v.cycle === undefined ? [v.from, v.to] : [v.from, ...v.cycle.map((step) => step.name)];
  return `${v.rule.name}: ${path.join(' → ')}`;
}

/**
 * Known violations, each removed with the code that makes it: an allowance that no longer matches anything fails the
 * test, so that the list only shrinks.
 */
const ALLOWED: { why: string; matches: (v: Violation) => boolean }[] = [];
function _inDb(path: string): boolean {
  return path.startsWith('src/db/');
}

test('the imports of src/ follow the dependency rules (db/ at the bottom, no product in platform/, no circle)', () => {
  const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  // The graph as JSON is over 1 MiB (spawnSync's default maxBuffer, which cuts it short).
  const run = spawnSync(process.execPath, [bin, 'src', '--output-type', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.ok(run.stdout.startsWith('{'), `dependency-cruiser did not answer: ${run.stderr}`);
  const { summary } = JSON.parse(run.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  assert.ok(summary.totalCruised > 200, `dependency-cruiser read ${summary.totalCruised} modules: is src/ read?`);
  const unexpected = summary.violations.filter((v) => !ALLOWED.some((a) => a.matches(v)));
  assert.deepEqual(unexpected.map(describe), [], 'imports that break a rule of .dependency-cruiser.cjs');
  const stale = ALLOWED.filter((a) => !summary.violations.some(a.matches));
  assert.deepEqual(
    stale.map((a) => a.why),
    [],
    'fixed: remove these from ALLOWED',
  );
});

/**
 * What differs between the backends is a method of db/, not a question the caller asks (docs/architecture.md): no file
 * outside db/ compares a dialect, names a Kysely adapter, or calls db/'s dialect questions. Migrations aside: their DDL
 * may differ per backend.
 */
const ASKS = [
  /\bdialect\s*[!=]==/,
  /[!=]==\s*'(?:postgres|sqlite)'/,
  /'(?:postgres|sqlite)'\s*[!=]==/,
  /\bcase\s+'(?:postgres|sqlite)'/,
  /\b(?:Postgres|Sqlite)Adapter\b/,
  /\b(?:locksRows|pgWriteOf)\b/,
];
// Today's askers, each removed by the write-path redesign (the transaction object of db/); the list only shrinks.
const ASKING_TODAY: string[] = [];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

test('no file outside src/db/ (migrations aside) asks which database is in use', () => {
  const asking = sources('src')
    .filter((path) => !path.startsWith('src/db/'))
    .flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, i) => (ASKS.some((re) => re.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
  assert.ok(sources('src').length > 150, 'src/ is read');
  const files = [...new Set(asking.map((hit) => hit.split(':')[0]!))];
  assert.deepEqual(
    asking.filter((hit) => !ASKING_TODAY.includes(hit.split(':')[0]!)),
    [],
    'these lines name a dialect outside db/: make the difference a method of db/',
  );
  assert.deepEqual(
    ASKING_TODAY.filter((path) => !files.includes(path)),
    [],
    'these files no longer name a dialect: remove them from ASKING_TODAY',
  );
});
