/**
 * The dashboard's request log (docs/api.md#the-request-log): it shows the query string a request was sent with, takes
 * a class of statuses in its filter (`4xx`), and shows no body to a key that may not read the route's group (issue 39
 * item 3, issue 40 item 9).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { get, signIn } from '../helpers/dashboard.ts';
import { call, useServer } from '../helpers/server.ts';

describe('the dashboard’s request log', () => {
  const server = useServer();

  test('filters by 4xx, shows the query string, and hides bodies from a key without the route’s group', async () => {
    const key = await server.key('dash-requests');
    const refused = await call(server.url, 'GET', '/v1/fintech/accounts?limit=zz', { key });
    assert.equal(refused.status, 400);
    const created = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key,
      json: { type: 'business', country: 'US', nickname: 'Visible only to accounts readers' },
    });
    assert.equal(created.status, 200, created.text);
    await server.app.requestLog.flush();
    const cookie = await signIn(server.url, key);

    // Before, `status=4xx` was an error page (status must be a whole number) and the query string was not kept.
    const list = await get(server.url, '/dashboard/requests?status=4xx', cookie);
    assert.equal(list.status, 200, list.html.slice(0, 500));
    assert.match(list.html, /<span class="break">\/v1\/fintech\/accounts\?limit=zz<\/span>/);
    assert.match(list.html, /value="4xx"/);
    assert.ok(!list.html.includes(created.headers.get('request-id')!), 'a 200 is not a 4xx');
    const one = await get(server.url, `/dashboard/requests/${refused.headers.get('request-id')}`, cookie);
    assert.equal(one.status, 200);
    assert.match(one.html, /<dt>Query<\/dt><dd><code class="break">\?limit=zz<\/code><\/dd>/);
    const bad = await get(server.url, '/dashboard/requests?status=4x', cookie);
    assert.equal(bad.status, 400);
    assert.match(bad.html, /status must look like 409 or 4xx\./);

    // A key with requests: read only sees that the create happened, not what it said.
    const made = await call(server.url, 'POST', '/v1/api_keys', { key, json: { permissions: { requests: 'read' } } });
    const reader = await signIn(server.url, made.body.key);
    const hidden = await get(server.url, `/dashboard/requests/${created.headers.get('request-id')}`, reader);
    assert.equal(hidden.status, 200);
    assert.match(hidden.html, /Hidden: this key may not read what this request was about/);
    assert.ok(!hidden.html.includes('Visible only to accounts readers'));
    const shown = await get(server.url, `/dashboard/requests/${created.headers.get('request-id')}`, cookie);
    assert.match(shown.html, /Visible only to accounts readers/);
  });
});
