/**
 * The API reference is rendered in a process of its own (src/platform/docs/render-reference.ts): React, Redoc and
 * styled-components never load into the server's process. Rendered there, they took about 200 MB of heap, and the
 * server's resident memory peaked near 380 MiB on every start whose document was not rendered yet (the first start
 * after a change to the API), against about 230 MiB otherwise. Before, this test failed: React and Redoc were in the
 * process's module cache after the render.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { renderedReference } from '../../../src/platform/docs/reference.ts';

test('rendering the reference loads neither React nor Redoc into the process that asked for it', async () => {
  // A document of its own, so that the cache holds no render of it yet.
  const title = `reference render ${process.pid} ${Date.now()}`;
  const reference = await renderedReference(
    JSON.stringify({ openapi: '3.1.0', info: { title, version: '1' }, paths: {} }),
  );
  assert.ok(reference.page.includes(title), 'the page renders the document');
  assert.match(reference.script, /^Redoc\.hydrate\(/);
  // Their code, that is: reference.ts reads Redoc's package.json for its version.
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) =>
    /\/node_modules\/(react|react-dom|redoc|styled-components)\/.*\.[cm]?js$/.test(path),
  );
  assert.deepEqual(loaded, []);
});
