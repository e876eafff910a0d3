/**
 * Every clients/<lang>/README.md's method table, and the file its code examples are compiled in, are exactly what
 * scripts/clients/readme.ts writes from the language's methods.json, the SDK view and the README itself: a method
 * added to a client (and so to its manifest, which the language's own test checks) shows in its README, and an
 * example edited in a README reaches the file the language's build compiles. Run `node scripts/clients/readme.ts`
 * when this fails. No toolchain is needed.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import {
  CLIENTS,
  EXAMPLES,
  expectedFiles,
  methodTable,
  readmeBlocks,
  replaceBetween,
} from '../../scripts/clients/readme.ts';
import { BACKEND } from '../helpers/database.ts';

/** Nothing here depends on the database: it runs in the SQLite pass only. */
const ONCE = BACKEND === 'postgres' && 'backend-independent: runs in the SQLite pass';

const languages = readdirSync(CLIENTS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(CLIENTS, entry.name, 'methods.json')))
  .map((entry) => entry.name)
  .sort();

describe('client READMEs are generated from the clients (run `node scripts/clients/readme.ts` when this fails)', {
  skip: ONCE,
}, () => {
  test('all nine languages have a methods.json', () => assert.equal(languages.length, 9));

  for (const lang of languages) {
    test(`clients/${lang}: the README's method table and examples file are what readme.ts writes`, () => {
      for (const [path, expected] of expectedFiles(CLIENTS, lang)) {
        assert.equal(readFileSync(path, 'utf8'), expected, `${relative(CLIENTS, path)} differs`);
      }
    });

    test(`clients/${lang}: the table names every method of methods.json and every HTTP operation once`, () => {
      const table = methodTable(CLIENTS, lang);
      const manifest: Record<string, string[]> = JSON.parse(readFileSync(join(CLIENTS, lang, 'methods.json'), 'utf8'));
      for (const name of Object.values(manifest).flat()) assert.ok(table.includes(`\`${name}\``), name);
      assert.equal(table.split('\n').length, Object.keys(manifest).length + 2);
    });
  }

  test('the languages whose examples are compiled have at least one example each', () => {
    for (const [lang, spec] of Object.entries(EXAMPLES)) {
      const readme = readFileSync(join(CLIENTS, lang, 'README.md'), 'utf8');
      assert.ok(readmeBlocks(readme, spec.tag).length > 0, lang);
    }
  });

  test('a README without the markers is refused, not silently left as it is', () => {
    assert.throws(
      () => replaceBetween('# x\n| a |\n', /methods:start/, /methods:end/, 'table', 'x'),
      /no methods:start/,
    );
  });

  test('the Install and Quickstart blocks are not examples; the other blocks are, in order', () => {
    const readme = [
      ...['## Install', '```go', 'x', '```', '## Quickstart', '```go', 'main', '```'],
      ...['## Errors', '```go', 'one', '```', '```sh', 'x', '```', '```go', 'two', '```'],
    ].join('\n');
    assert.deepEqual(readmeBlocks(readme, 'go'), ['one', 'two']);
  });
});
