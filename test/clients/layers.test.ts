/**
 * The clients' per-operation layers (scripts/clients/layers/<lang>.ts) are what their templates make of the
 * committed SDK view: each is regenerated into a temporary directory and compared with clients/<lang>/ file by file,
 * including the directories a template owns holding nothing else. A difference means someone changed the document
 * or a template without regenerating (`node scripts/clients/layers/layers.ts`, or `npm run clients`), or
 * hand-edited a generated file. No JVM and no toolchain: the templates are plain TypeScript.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLIENTS, renderAll, type Template, writeLayers } from '../../scripts/clients/layers/layers.ts';
import { loadModel, operationsOf } from '../../scripts/clients/layers/model.ts';
import { BACKEND } from '../helpers/database.ts';

/** Nothing here depends on the database: it runs in the SQLite pass only. */
const ONCE = BACKEND === 'postgres' && 'backend-independent: runs in the SQLite pass';

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the clients’ generated per-operation layers are in step with clients/openapi.sdk.json', {
  skip: ONCE,
}, () => {
  let out: string;
  let rendered: Map<Template, Record<string, string>>;
  before(async () => {
    out = mkdtempSync(join(tmpdir(), 'plinth-layers-'));
    await writeLayers(out, CLIENTS);
    rendered = await renderAll(CLIENTS);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  test('every client operation names its SDK resource and method (x-plinth-sdk), once', () => {
    const ops = loadModel(CLIENTS);
    assert.ok(ops.length > 30, `only ${ops.length} operations`);
    const names = ops.map((op) => `${op.resource}.${op.method}`);
    assert.equal(new Set(names).size, names.length);
  });

  test('a read paged by another cursor than starting_after (the audit chain) is one method that keeps its limit', () => {
    // Before: `limit` was dropped from every operation's query, so the audit chain's method had `after` only and
    // java.ts refused the generated call (`listAuditChain: the generated call's limit is not known to java.ts`).
    const integer = (name: string) => ({ in: 'query', name, required: false, schema: { type: 'integer' } });
    const page = { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/L' } } } };
    const read = (operationId: string, method: string, parameters: object[]) => ({
      get: {
        operationId,
        tags: ['Audit'],
        parameters,
        'x-plinth-sdk': { resource: 'audit', method },
        responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/P' } } } } },
      },
    });
    const [chain, list] = operationsOf({
      paths: {
        '/v1/audit/chain': read('listAuditChain', 'listChain', [integer('after'), integer('limit')]),
        '/v1/things': read('listThings', 'list', [
          integer('limit'),
          { ...integer('starting_after'), schema: { type: 'string' } },
        ]),
      },
      components: { schemas: { P: page, L: { type: 'object' } } },
    });
    assert.deepEqual(
      [chain!.list, chain!.pageMethod, chain!.queryParams.map((p) => p.name)],
      [false, null, ['after', 'limit']],
    );
    assert.deepEqual([list!.list, list!.pageMethod, list!.queryParams.map((p) => p.name)], [true, 'listPage', []]);
    const model = loadModel(CLIENTS).find((op) => op.operationId === 'listAuditChain');
    assert.deepEqual(
      model?.queryParams.map((p) => `${p.name}:${p.kind}`),
      ['after:integer', 'limit:integer'],
    );
  });

  test('at least one language has a template', () => assert.ok(rendered.size > 0));

  test('each template’s files are committed as it writes them (run scripts/clients/layers/layers.ts)', () => {
    for (const [template, made] of rendered) {
      const stale = Object.keys(made).filter((path) => {
        const committed = join(CLIENTS, template.lang, path);
        return !existsSync(committed) || readFileSync(committed, 'utf8') !== made[path];
      });
      assert.deepEqual(stale, [], `clients/${template.lang}: ${stale.length} generated file(s) differ`);
    }
  });

  test('the directories a template owns hold only what it writes (no file of a removed operation left)', () => {
    for (const template of rendered.keys()) {
      for (const dir of template.owns) {
        const committed = files(join(CLIENTS, template.lang, dir));
        const fresh = files(join(out, template.lang, dir));
        assert.deepEqual(committed, fresh, `clients/${template.lang}/${dir}`);
      }
    }
  });
});
