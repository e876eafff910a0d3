import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Checks every response the test suite receives against the committed OpenAPI document: the status is
 * documented for the operation, the content type is documented for that status, and the body is valid under
 * the document's JSON Schema 2020-12. Any drift between behaviour and description fails the test that saw it.
 */
export const DOCUMENT = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'));

/**
 * An Ajv for the document: with OpenAPI's integer formats, which Ajv does not know (it would warn "unknown format
 * int64" and check nothing). An int64 is exact in JSON up to 2^53 − 1, as the server's validator reads it.
 */
export function documentAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addSchema(DOCUMENT, 'openapi');
  return ajv;
}

const ajv = documentAjv();

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

const operations = Object.entries<Record<string, unknown>>(DOCUMENT.paths).flatMap(([template, item]) =>
  Object.keys(item).map((method) => ({
    method: method.toUpperCase(),
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
  })),
);

function validate(pointer: string, value: unknown, what: string): void {
  const check = ajv.getSchema(`openapi#${pointer}`);
  assert.ok(check, `no schema at ${pointer}`);
  assert.ok(
    check(value),
    `${what} does not match the OpenAPI document: ${ajv.errorsText(check.errors)}\n${JSON.stringify(value).slice(0, 500)}`,
  );
}

export function checkResponse(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  text: string,
  body: unknown,
): void {
  if (method === 'HEAD') return;
  const path = new URL(url).pathname;
  const contentType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  const operation = operations.find((o) => o.method === method && o.regex.test(path));
  if (operation === undefined) {
    // Not an operation of the document: only "no such route" and "wrong method" may answer.
    assert.ok(
      status === 404 || status === 405,
      `${method} ${path} is not in the OpenAPI document but answered ${status}`,
    );
    assert.equal(contentType, 'application/problem+json');
    validate('/components/schemas/Problem', body, `${method} ${path} → ${status}`);
    return;
  }
  const base = `/paths/${escapePointer(operation.template)}/${method.toLowerCase()}/responses`;
  const responses = DOCUMENT.paths[operation.template][method.toLowerCase()].responses;
  assert.ok(
    responses[String(status)],
    `${method} ${operation.template} answered ${status}, which the OpenAPI document does not list`,
  );
  const content = responses[String(status)].content ?? {};
  assert.ok(
    content[contentType],
    `${method} ${operation.template} → ${status} sent ${contentType}, which the document does not list`,
  );
  const isJson = /json$/.test(contentType);
  validate(
    `${base}/${status}/content/${escapePointer(contentType)}/schema`,
    isJson ? body : text,
    `${method} ${operation.template} → ${status}`,
  );
  assert.match(headers.get('request-id') ?? '', /^req_[0-9A-Z]{26}$/, 'the documented Request-Id header');
}
