/**
 * The confirmation pages over HTTP (docs/dashboard.md#confirmations): a refusal comes back to the confirmation page
 * with the API's problem and its status, a key that may not act is not even asked, and a freeze sent without a
 * reason (no browser to ask for one) is the API's 400 beside the field.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { get, hiddenFields, post, signIn } from '../helpers/dashboard.ts';
import { call, useServer } from '../helpers/server.ts';

describe('dashboard confirmations over HTTP', () => {
  const server = useServer();

  test("revoking the organisation's last key: the confirmation page again, with the API's 409", async () => {
    const key = await server.key('confirm-last');
    const cookie = await signIn(server.url, key);
    const id = (await call(server.url, 'GET', '/v1/api_keys', { key })).body.data[0].id;
    const asked = await get(server.url, `/dashboard/api-keys/${id}/revoke`, cookie);
    assert.equal(asked.status, 200);
    assert.match(asked.html, /<h1>Revoke the key this session uses\?<\/h1>/);
    const action = `/dashboard/api-keys/${id}/revoke`;
    const refused = await post(server.url, action, hiddenFields(asked.html, action), { cookie });
    assert.equal(refused.status, 409);
    assert.match(refused.html, /<h1>Revoke the key this session uses\?<\/h1>/);
    assert.match(refused.html, /<code>api_key_last_active<\/code>/);
    assert.equal((await call(server.url, 'GET', '/v1/api_keys', { key })).status, 200, 'the key still works');
  });

  test('a key that may not delete an endpoint is refused the confirmation page itself', async () => {
    const admin = await server.key('confirm-ro');
    const hook = await call(server.url, 'POST', '/v1/webhook_endpoints', {
      key: admin,
      json: { url: 'http://127.0.0.1:9/ro', enabled_events: ['*'] },
    });
    const made = await call(server.url, 'POST', '/v1/api_keys', {
      key: admin,
      json: { permissions: { webhook_endpoints: 'read' } },
    });
    const cookie = await signIn(server.url, made.body.key);
    const page = await get(server.url, `/dashboard/webhooks/${hook.body.id}`, cookie);
    assert.equal(page.status, 200);
    assert.ok(!page.html.includes('/delete"'), 'no Delete link offered');
    const asked = await get(server.url, `/dashboard/webhooks/${hook.body.id}/delete`, cookie);
    assert.equal(asked.status, 403);
    assert.match(asked.html, /permission_denied/);
  });

  test('a freeze sent without a reason is the API’s 400, beside the reason', async () => {
    const key = await server.key('confirm-reason');
    const account = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key,
      json: { type: 'business', country: 'US' },
    });
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, `/dashboard/accounts/${account.body.id}`, cookie);
    assert.match(page.html, /<option value="" selected>Choose a reason<\/option>/);
    const action = `/dashboard/accounts/${account.body.id}/freeze`;
    const refused = await post(server.url, action, { ...hiddenFields(page.html, action), reason: '' }, { cookie });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /id="f-reason-error">/);
    const after = await call(server.url, 'GET', `/v1/fintech/accounts/${account.body.id}`, { key });
    assert.equal(after.body.status, 'active');
  });
});
