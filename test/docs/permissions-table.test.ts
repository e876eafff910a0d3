/**
 * docs/api.md#which-routes-need-what is the route table's own (scripts/docs/permissions-table.ts): the committed table
 * is exactly what the declared operations make, so a route added, removed or given another permission fails here
 * until `npm run docs:permissions` is run; and each row follows the rule the page states, written here by hand:
 * a GET needs `read` of its group, every POST and DELETE `write`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { blockOf } from '../../scripts/docs/markers.ts';
import {
  API_MD,
  declaredOperations,
  END,
  MARKERS,
  permissionsTable,
  START,
} from '../../scripts/docs/permissions-table.ts';

const page = readFileSync(API_MD, 'utf8');
const committed = blockOf(page, MARKERS);

test('the table in docs/api.md is the one the routes make', async () => {
  assert.ok(page.includes(START) && page.includes(END), 'docs/api.md has the permissions-table markers');
  const operations = await declaredOperations();
  assert.equal(committed, permissionsTable(operations), 'docs/api.md is stale: run npm run docs:permissions');
  const keyed = operations.filter((op) => op.permission !== 'public');
  assert.equal(committed.split('\n').length - 2, keyed.length, 'one row per keyed route');
});

test('each row: a GET needs read, a POST or DELETE needs write', () => {
  const rows = [...committed.matchAll(/^\| `(GET|POST|DELETE) (\S+)` \| `(\w+): (read|write)` \|$/gm)];
  assert.ok(rows.length >= 40, `only ${rows.length} rows`);
  for (const [row, method, , , level] of rows) assert.equal(level, method === 'GET' ? 'read' : 'write', row);
});
