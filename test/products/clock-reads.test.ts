/**
 * An owner's time is its own (docs/api.md#the-sandbox-clock): in a sandbox it is the org's clock, so every time a
 * product service writes or compares comes from `WriteContext.now` in a write or `deps.now(db, owner)` in a read
 * (src/platform/clock/clock.ts), never from the process's clock. A plain reading of src/products/** fails on any stray
 * read of real time: `Date.now()`, `new Date()` or `Date()` without an argument, or a call of a `clock()` (the real
 * clock the deps carry). The few reads that rightly stay on real time are listed below with their reason; an
 * allowance that no longer matches anything fails too, so that the list only shrinks.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const PRODUCTS = 'src/products';

const STRAY: [string, RegExp][] = [
  ['Date.now()', /\bDate\.now\(\s*\)/g],
  ['new Date()', /\bnew\s+Date\(\s*\)/g],
  ['Date()', /(?<!new\s+)(?<![.\w])Date\(\s*\)/g],
  ['clock()', /\bclock\(\s*\)/g],
];

/** The code of a file without its comments (a `//` after a colon or a quote is a URL's or a string's, kept). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every stray read of real time in `text`: the kind and its line, one entry each. */
function strayReads(text: string): { kind: string; line: string }[] {
  const found = [];
  for (const line of code(text).split('\n'))
    for (const [kind, pattern] of STRAY)
      for (const _ of line.matchAll(pattern)) found.push({ kind, line: line.trim() });
  return found;
}

/** Reads of real time that are right where they are: each with the file, what it reads, how many, and why. */
const ALLOWED: { file: string; kind: string; count: number; why: string }[] = [
  {
    file: 'src/products/fintech/index.ts',
    kind: 'Date.now()',
    count: 2,
    why:
      'the ledger-invariants gauge throttles its own full scan to once a minute of real time; it reads no owner’s ' +
      'time and writes nothing',
  },
  {
    file: 'src/products/fintech/transfers.expiry.ts',
    kind: 'clock()',
    count: 1,
    why:
      'the expiry sweep judges what is due for every owner at once on real time, and dates those writes by it: live ' +
      'mode runs on real time, and a sandbox clock is never behind real time (its offset only grows), so what the ' +
      'sweep finds is due on its owner’s clock too, and real now lies between its due moment and the owner’s now, ' +
      'as the sandbox clock’s own pass dates it (at the due moment; that pass runs a sandbox’s expiries first)',
  },
  {
    file: 'src/products/fintech/bank/statements/import.ts',
    kind: 'new Date()',
    count: 2,
    why:
      'a bank statement is live money, and live mode runs on real time (no sandbox clock): the operator’s import ' +
      'dates the statement and each line’s match by it',
  },
  {
    file: 'src/products/fintech/bank/statements/exceptions.ts',
    kind: 'new Date()',
    count: 1,
    why: 'resolving a live statement line’s exception is the operator’s act, dated by real time (live mode’s)',
  },
];

test('the detector finds each stray read, and not the reads of a given time nor comments', () => {
  const flagged = (text: string) => strayReads(text).map((r) => r.kind);
  assert.deepEqual(flagged('const t = Date.now();'), ['Date.now()']);
  assert.deepEqual(flagged('const t = new Date();'), ['new Date()']);
  assert.deepEqual(flagged('const t = String(Date());'), ['Date()']);
  assert.deepEqual(flagged('const at = deps.clock();\nconst b = clock( );'), ['clock()', 'clock()']);
  for (const fine of [
    'new Date(row.created_at)',
    'new Date(at.getTime() + 1)',
    'd.getUTCDate()',
    '// Date.now() in a comment',
    '/**\n * new Date() in a doc comment\n */',
    '/* deps.clock() */ const x = 1;',
    "const url = 'https://example.com'; // Date.now()",
    'const now = ctx.now;',
    'await deps.now(db, owner)',
  ])
    assert.deepEqual(flagged(fine), [], fine);
});

test('no product service reads real time: its owner’s time comes from WriteContext.now or deps.now', () => {
  const files = readdirSync(join(ROOT, PRODUCTS), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${PRODUCTS}/${f}`);
  assert.ok(files.length >= 20, `only ${files.length} files under ${PRODUCTS}`);
  const unexplained: string[] = [];
  const used = new Map<(typeof ALLOWED)[number], number>();
  for (const file of files) {
    const reads = strayReads(readFileSync(join(ROOT, file), 'utf8'));
    for (const kind of new Set(reads.map((r) => r.kind))) {
      const here = reads.filter((r) => r.kind === kind);
      const allowed = ALLOWED.find((a) => a.file === file && a.kind === kind);
      if (allowed !== undefined && here.length === allowed.count) used.set(allowed, here.length);
      else unexplained.push(...here.map((r) => `${file}: ${r.kind} in \`${r.line}\``));
    }
  }
  assert.deepEqual(
    unexplained,
    [],
    'read the owner’s time instead: `ctx.now` in a write, `await deps.now(db, owner)` in a read (or list the read ' +
      'in ALLOWED with its reason)',
  );
  for (const allowed of ALLOWED)
    assert.ok(used.has(allowed), `${allowed.file}: no longer ${allowed.count} × ${allowed.kind}; update ALLOWED`);
});
