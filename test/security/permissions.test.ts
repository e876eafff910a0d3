/**
 * Restricted keys, route by route (docs/api.md#restricted-keys), generated from the route inventory: for every
 * declared operation, a key holding exactly the permission it declares is let through, and a key with one level less
 * is refused with 403 `permission_denied` whose detail names what the route needs and what the key has, before its
 * body is read. A route added without a permission fails here (the document must state one for every keyed route).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Level, PermissionGroup } from '../../src/platform/auth/permissions.ts';
import type { Operation } from '../../src/platform/operations/operation.ts';
import { BACKEND } from '../helpers/database.ts';
import { DOCUMENT } from '../helpers/openapi.ts';
import { assertProblem } from '../helpers/problem.ts';
import { call, useServer } from '../helpers/server.ts';

const LESS: Record<Level, 'none' | 'read'> = { write: 'read', read: 'none' };
// Ids of the right shape that name nothing: a let-through request is answered (404, 400…), never 403.
const SAMPLE: Record<string, string> = {
  id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
  reversal_id: 'trr_01M7Z3A8K2XK8P3Q9VJ6T5N0CD',
};

describe(`restricted keys, every route (${BACKEND})`, () => {
  const server = useServer();

  test('every keyed operation of the document states its permission, as the route declares it', async () => {
    const document = DOCUMENT;
    const operations = [...server.app.operations.values()];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>))
      for (const [method, operation] of Object.entries(item)) {
        if (path === '/v1/openapi.json' || operation.security?.length === 0) continue;
        const declared = operations.find((op) => op.schema.operationId === operation.operationId);
        assert.ok(declared, `${method} ${path}: not a declared operation`);
        assert.deepEqual(operation['x-permission'], declared.permission, `${method} ${path}`);
        const { group, level } = declared.permission as { group: string; level: string };
        assert.match(operation.description, new RegExp(`Needs \`${group}: ${level}\``), `${method} ${path}`);
      }
  });

  test('each route lets a key with exactly its permission through, and refuses one level less', async () => {
    const admin = await server.key('permissions-every-route');
    const keys = new Map<string, string>();
    const keyWith = async (group: PermissionGroup, level: 'none' | Level) => {
      const name = `${group}:${level}`;
      if (!keys.has(name)) {
        const reply = await call(server.url, 'POST', '/v1/api_keys', {
          key: admin,
          json: { name, permissions: level === 'none' ? {} : { [group]: level } },
        });
        assert.equal(reply.status, 200, reply.text);
        assert.match(reply.body.key, /^rk_test_/);
        keys.set(name, reply.body.key);
      }
      return keys.get(name)!;
    };
    let checked = 0;
    for (const op of server.app.operations.values() as Iterable<Operation>) {
      if (op.permission === 'public') continue;
      const { group, level } = op.permission;
      const path = op.path.replace(/:(\w+)/g, (_, name: string) => SAMPLE[name] ?? 'x');
      // A body the route would refuse: only a let-through request may learn that.
      // A stream let through would stay open: a resume point it refuses (400) shows it was let through.
      const query = op.kind === 'stream' ? '?after=-1' : '';
      const send = (key: string) =>
        call(server.url, op.method, path + query, {
          key,
          ...(op.method === 'POST' ? { json: { not_a_field: 1 } } : {}),
        });
      const exact = await send(await keyWith(group, level));
      assert.notEqual(exact.status, 403, `${op.method} ${op.path} with ${group}: ${level}: ${exact.text}`);
      const less = await send(await keyWith(group, LESS[level]));
      assertProblem(less, 'permission_denied');
      const route = `${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}`;
      assert.equal(less.body.detail, `This key has ${group}: ${LESS[level]}; ${route} needs ${group}: ${level}.`);
      checked++;
    }
    assert.ok(checked >= 40, `only ${checked} operations checked`);
  });
});
