/**
 * The closed list of error codes is the core's and every registered module's (src/modules.ts): a module's code
 * reaches ApiError, the problem schema and /docs/errors through its registration, in a defined order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { WEBHOOK_ERRORS } from '../../../src/modules/webhooks/index.ts';
import { ERROR_CODES, registerModules } from '../../../src/modules.ts';
import { errorCatalogueHtml } from '../../../src/platform/docs/errors-page.ts';
import { errorCatalogue, PLATFORM_ERRORS } from '../../../src/platform/http/error-codes.ts';
import { ApiError, useErrorCatalogue } from '../../../src/platform/http/errors.ts';
import { problemSchema } from '../../../src/platform/http/problem.schema.ts';
import { FINTECH_ERRORS } from '../../../src/products/fintech/errors.ts';

const GADGET_ERRORS = {
  gadget_jammed: { status: 409, title: 'Gadget jammed', description: 'The gadget is jammed.' },
  gadget_too_small: { status: 400, title: 'Gadget too small', description: 'The gadget is too small.' },
};

describe('error codes registered by products', () => {
  after(registerModules);

  test('a registered product’s code is in the catalogue, the problem schema’s enum and /docs/errors', () => {
    const catalogue = errorCatalogue([FINTECH_ERRORS, GADGET_ERRORS]);
    assert.deepEqual((catalogue as Record<string, unknown>).gadget_jammed, GADGET_ERRORS.gadget_jammed);
    const codes = Object.keys(catalogue);
    const schema = problemSchema(codes);
    const enumOf = (property: unknown) => (property as { enum: string[] }).enum;
    assert.deepEqual(enumOf(schema.properties.code), codes);
    assert.ok(enumOf(schema.properties.code).includes('gadget_jammed'));
    assert.ok(enumOf(schema.properties.errors.items.properties.code).includes('gadget_too_small'));
    useErrorCatalogue(catalogue);
    assert.equal(new ApiError('gadget_jammed' as never, 'Jammed.').status, 409);
    assert.match(errorCatalogueHtml(), /<section id="gadget_jammed"><h2><code>gadget_jammed<\/code> — 409 /);
  });

  test('within a status: the core’s codes, then each module’s in registry order', () => {
    const codes = Object.keys(errorCatalogue([WEBHOOK_ERRORS, FINTECH_ERRORS, GADGET_ERRORS]));
    const conflicts = codes.slice(codes.indexOf('idempotency_request_in_progress'), codes.indexOf('body_too_large'));
    assert.deepEqual(conflicts, [
      'idempotency_request_in_progress',
      'api_key_limit_reached',
      'api_key_last_active',
      ...Object.keys(WEBHOOK_ERRORS),
      ...Object.keys(FINTECH_ERRORS).filter((c) => c !== 'country_unsupported'),
      'gadget_jammed',
    ]);
    assert.deepEqual(codes.slice(codes.indexOf('parameter_unknown'), codes.indexOf('api_key_missing')), [
      'parameter_unknown',
      'country_unsupported',
      'gadget_too_small',
    ]);
  });

  test('the registry’s order is the published document’s enum, code for code', () => {
    const document = JSON.parse(readFileSync(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(Object.keys(ERROR_CODES), document.components.schemas.Problem.properties.code.enum);
  });

  test('the core alone has no module’s code, and a code of an unregistered module is refused', () => {
    const platform = errorCatalogue([]);
    assert.deepEqual(Object.keys(platform).sort(), Object.keys(PLATFORM_ERRORS).sort());
    useErrorCatalogue(platform);
    assert.throws(() => new ApiError('insufficient_funds', 'x'), /insufficient_funds is not registered/);
  });

  test('a code declared twice, by two products or by a product and the platform, is refused at start-up', () => {
    assert.throws(() => errorCatalogue([FINTECH_ERRORS, { insufficient_funds: GADGET_ERRORS.gadget_jammed }]), /twice/);
    assert.throws(() => errorCatalogue([{ rate_limited: GADGET_ERRORS.gadget_jammed }]), /rate_limited .*twice/);
  });

  test('a product’s code is checked where it is thrown', () => {
    registerModules();
    assert.equal(new ApiError('insufficient_funds', 'Not enough.').status, 409);
    // @ts-expect-error: a misspelt code is no ErrorCode
    assert.throws(() => new ApiError('insufficient_fund', 'Not enough.'));
  });
});
