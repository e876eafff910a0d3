/**
 * The committed clients are exactly what `npm run clients` makes of the committed API description: the SDK view
 * and every clients/<lang>/generated/ tree are regenerated into a temporary directory (one OpenAPI Generator JVM
 * for all languages) and compared file by file. A difference means someone changed the document, the SDK view
 * script or a client.json without regenerating, or hand-edited generated code.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BACKEND } from '../helpers/database.ts';

/** Nothing here depends on the database: it runs in the SQLite pass only. */
const ONCE = BACKEND === 'postgres' && 'backend-independent: runs in the SQLite pass';

import { after, before, describe, test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const CLIENTS = join(ROOT, 'clients');

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true })
      // Byte code that running generated Python from the source tree leaves behind is not generator output.
      .filter((entry) => entry.isFile() && !entry.parentPath.split(/[\\/]/).includes('__pycache__'))
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort()
  );
}

/** Paths that differ between two trees: missing on either side, or different bytes. */
function differences(committed: string, fresh: string): string[] {
  const a = files(committed);
  const b = files(fresh);
  const all = [...new Set([...a, ...b])].sort();
  return all.filter((path) => {
    if (!a.includes(path)) return true;
    if (!b.includes(path)) return true;
    return !readFileSync(join(committed, path)).equals(readFileSync(join(fresh, path)));
  });
}

const languages = readdirSync(CLIENTS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(CLIENTS, entry.name, 'client.json')))
  .map((entry) => entry.name)
  .sort();

describe('generated clients are in step with openapi/openapi.json (run `npm run clients` when this fails)', {
  skip: ONCE,
}, () => {
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), 'plinth-drift-'));
    const result = spawnSync(process.execPath, ['scripts/clients/generate.ts', '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, `npm run clients failed:\n${result.stdout}${result.stderr}`);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  for (const view of ['openapi.sdk.json', 'openapi.sdk.3.0.json']) {
    test(`clients/${view} is what scripts/clients/sdk-view.ts derives`, () => {
      assert.equal(readFileSync(join(out, view), 'utf8'), readFileSync(join(CLIENTS, view), 'utf8'));
    });
  }

  for (const lang of languages) {
    test(`clients/${lang}/generated/ is what its generator makes`, () => {
      const changed = differences(join(CLIENTS, lang, 'generated'), join(out, lang, 'generated'));
      assert.deepEqual(changed.slice(0, 20), [], `${changed.length} file(s) differ under clients/${lang}/generated/`);
    });
    test(`no file of clients/${lang}/generated/ is hidden from git by a .gitignore`, () => {
      // An ignored generated file is present here but missing from a fresh clone, where this test would then fail.
      const ignored = spawnSync(
        'git',
        ['ls-files', '--others', '--ignored', '--exclude-standard', '--', `clients/${lang}/generated`],
        { cwd: ROOT, encoding: 'utf8' },
      );
      assert.equal(ignored.stdout, '');
    });
  }
});
