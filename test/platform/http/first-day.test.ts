import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const ACCOUNTS = '/v1/fintech/accounts';

describe('what a new user and a hostile page meet first (issue 11, findings 5 and 6)', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  test('invisible and direction-changing characters are refused in every free-text name', async () => {
    for (const sneaky of ['Acme\u200BCorp', '\u202EAcme', 'Acme\u2028Corp', 'Acme\u2029', '\uFEFFAcme', 'A\u2066B']) {
      const kyb = { ein: '12-3456789', legal_name: sneaky };
      const account = await call(server.url, 'POST', ACCOUNTS, { key, json: { type: 'business', country: 'US', kyb } });
      assertProblem(account, 'parameter_invalid', 'kyb.legal_name');
      assert.match(account.body.detail, /invisible|direction/);
      assertProblem(
        await call(server.url, 'POST', '/v1/sandbox/signup', { json: { name: sneaky } }),
        'parameter_invalid',
        'name',
      );
    }
    const fine = { ein: '12-3456789', legal_name: 'Zürich Ünternehmen GmbH — 東京' };
    assert.equal(
      (await call(server.url, 'POST', ACCOUNTS, { key, json: { type: 'business', country: 'US', kyb: fine } })).status,
      200,
    );
  });

  test('every /v1 response carries Cache-Control: no-store and X-Content-Type-Options: nosniff', async () => {
    const replies = [
      await call(server.url, 'GET', ACCOUNTS, { key }),
      await call(server.url, 'GET', ACCOUNTS),
      await call(server.url, 'POST', ACCOUNTS, { key, json: { type: 'business', country: 'US' } }),
      await call(server.url, 'GET', '/v1/openapi.json'),
      await call(server.url, 'GET', '/v1/nope', { key }),
      await call(server.url, 'POST', '/v1/sandbox/signup', { json: {} }),
    ];
    for (const reply of replies) {
      assert.equal(reply.headers.get('cache-control'), 'no-store', `${reply.status} ${reply.text.slice(0, 80)}`);
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  test("the pages under /docs allow only this server's own origin, and Redoc's init is not inline", async () => {
    for (const path of ['/docs', '/docs/errors']) {
      const page = await call(server.url, 'GET', path);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/, `${path}: ${csp}`);
      assert.doesNotMatch(csp, /\*|https?:|'unsafe-eval'/);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    }
    const reference = await call(server.url, 'GET', '/docs');
    assert.doesNotMatch(reference.text, /<script>/, 'no inline script: the CSP would block it');
  });

  test('/favicon.ico is a small icon, not a 404', async () => {
    const response = await fetch(`${server.url}/favicon.ico`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^image\//);
    const bytes = (await response.arrayBuffer()).byteLength;
    assert.ok(bytes > 0 && bytes < 2048, `${bytes} bytes`);
  });

  test('"kyb": null is the same as leaving kyb out', async () => {
    const reply = await call(server.url, 'POST', ACCOUNTS, {
      key,
      json: { type: 'business', country: 'US', kyb: null },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.kyb, null);
  });

  test('a good key sent the wrong way is told the expected form, Authorization: Bearer <key>', async () => {
    for (const authorization of [`Basic ${Buffer.from(`${key}:`).toString('base64')}`, key, `Token ${key}`]) {
      const reply = await call(server.url, 'GET', ACCOUNTS, { headers: { authorization } });
      assertProblem(reply, 'api_key_invalid', 'Authorization');
      assert.match(reply.body.detail, /Authorization: Bearer <key>/, reply.body.detail);
    }
  });

  test('TRUST_PROXY=true is refused at start-up: it would let any client choose its own address', () => {
    assert.throws(
      () => loadConfig({ TRUST_PROXY: 'true' }),
      (e: Error) => {
        return e instanceof ConfigError && /^TRUST_PROXY: /.test(e.message);
      },
    );
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY, ['10.0.0.0/8', '127.0.0.1']);
  });
});
