import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOCUMENT, documentAjv } from '../helpers/openapi.ts';

type Json = Record<string, any>;

const ajv = documentAjv();
const validAt = (pointer: string, value: unknown) => ajv.getSchema(`openapi#${pointer}`)!(value);
const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** An example a reader would take for real: valid, and never a key of one mode claiming the other. */
function assertRealistic(where: string, pointer: string, example: unknown): void {
  assert.ok(validAt(pointer, example), `${where}: its example does not match its schema: ${JSON.stringify(example)}`);
  const text = JSON.stringify(example);
  assert.doesNotMatch(text, /"string"/, `${where}: a placeholder value`);
  for (const match of text.matchAll(/"mode":"(sandbox|live)"[^{}]*?"livemode":(true|false)/g))
    assert.equal(match[2], String(match[1] === 'live'), `${where}: mode ${match[1]} with livemode ${match[2]}`);
}

test('every shared schema has a realistic example (Redoc shows it instead of "string")', () => {
  for (const [name, schema] of Object.entries<Json>(DOCUMENT.components.schemas)) {
    assert.ok(Array.isArray(schema.examples) && schema.examples.length > 0, `${name} has no examples`);
    for (const example of schema.examples) assertRealistic(name, `/components/schemas/${escapePointer(name)}`, example);
  }
});

test('every JSON request body and inline JSON response has a realistic example', () => {
  for (const [path, item] of Object.entries<Json>(DOCUMENT.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const base = `/paths/${escapePointer(path)}/${method}`;
      const body = operation.requestBody?.content?.['application/json'];
      if (body) {
        const examples =
          body.example === undefined ? Object.values<Json>(body.examples ?? {}) : [{ value: body.example }];
        assert.ok(examples.length > 0, `${method} ${path}: request body without examples`);
        for (const e of examples)
          assertRealistic(`${method} ${path} body`, `${base}/requestBody/content/application~1json/schema`, e.value);
      }
      const media = operation.responses['200']?.content?.['application/json'];
      if (media?.schema?.properties) {
        // @fastify/swagger moves an inline schema's examples to the media type.
        const example = media.example ?? Object.values<Json>(media.examples ?? {})[0]?.value;
        assert.ok(example !== undefined, `${method} ${path}: 200 without an example`);
        assertRealistic(`${method} ${path} 200`, `${base}/responses/200/content/application~1json/schema`, example);
      }
    }
  }
});
