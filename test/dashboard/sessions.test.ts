/**
 * Dashboard sessions over plain HTTP (docs/dashboard.md#sessions): the cookie's attributes over http and https, the session stored
 * only as a hash with nothing of the key, 12 hours at most, sign-out, expiry, the end of a session whose key is
 * revoked, sign-in failures in the per-address auth-failure budget, and forms refused without the session's CSRF
 * token or from another origin.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { revokeKeyById } from '../../src/modules/keys/api-keys.operator.ts';
import { cookieOf, get, hiddenFields, post, signIn } from '../helpers/dashboard.ts';
import { call, operatorDeps, startServer, useServer } from '../helpers/server.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('dashboard sessions', () => {
  const server = useServer({ TRUST_PROXY: '127.0.0.1' });

  test('every page and asset: strict CSP, no-store, nosniff, no inline script or style', async () => {
    const key = await server.key('sess-headers');
    const cookie = await signIn(server.url, key);
    for (const path of ['/dashboard/sign-in', '/dashboard', '/dashboard/accounts', '/dashboard/assets/dashboard.css']) {
      const page = await get(server.url, path, cookie);
      assert.equal(page.status, 200, path);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /style-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/, path);
      assert.equal(page.headers.get('cache-control'), 'no-store', path);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff', path);
      if (path.endsWith('.css')) continue;
      assert.doesNotMatch(page.html, /<script(?![^>]*\bsrc="\/dashboard\/assets\/)/, `no inline script on ${path}`);
      assert.doesNotMatch(page.html, /<style|\sstyle="|\son[a-z]+="/i, `no inline style or handler on ${path}`);
      assert.doesNotMatch(page.html, /(src|href|action)="(https?:)?\/\//, `nothing from another origin on ${path}`);
    }
  });

  test('over http: an HttpOnly, SameSite=Strict cookie on /dashboard, holding a random id stored only as its hash', async () => {
    const key = await server.key('sess-http');
    const page = await post(server.url, '/dashboard/sign-in', { key });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/dashboard');
    const set = page.headers.getSetCookie()[0]!;
    assert.match(set, /^plinth_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    const id = cookieOf(page).split('=')[1]!;
    assert.ok(!set.includes(key.slice(8, 20)), 'the key is not in the cookie');
    const rows = await server.database.db.selectFrom('dashboard_sessions').selectAll().execute();
    const row = rows.find((r) => r.id_hash === sha256(id));
    assert.ok(row, 'the row holds the SHA-256 of the id');
    assert.ok(!JSON.stringify(rows).includes(id), 'and never the id itself');
    assert.ok(!JSON.stringify(rows).includes(key), 'nor the key');
    assert.equal(Date.parse(row.expires_at) - Date.parse(row.created_at), 12 * 3_600_000, '12 hours');
    assert.equal(row.mode, 'sandbox');
    const home = await get(server.url, '/dashboard', cookieOf(page));
    assert.equal(home.status, 200);
    assert.ok(!home.html.includes(key), 'the key is in no page');
  });

  test('over https (TLS at a trusted proxy): __Host- prefix, Secure, Path=/; each transport reads only its own cookie', async () => {
    const key = await server.key('sess-https');
    const https = { 'x-forwarded-proto': 'https' };
    const page = await post(
      server.url,
      '/dashboard/sign-in',
      { key },
      { headers: https, origin: 'https://127.0.0.1:' + new URL(server.url).port },
    );
    assert.equal(page.status, 303, page.html);
    const set = page.headers.getSetCookie()[0]!;
    // __Host- cookies must be Secure, host-only and Path=/ (RFC 6265bis): browsers drop one with Path=/dashboard.
    assert.match(
      set,
      /^__Host-plinth_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/,
    );
    const cookie = cookieOf(page);
    assert.equal((await get(server.url, '/dashboard', cookie, https)).status, 200);
    assert.equal((await get(server.url, '/dashboard', cookie)).status, 303, 'the https cookie is not read over http');
    const plain = cookie.replace('__Host-', '');
    assert.equal((await get(server.url, '/dashboard', plain, https)).status, 303, 'nor a plain one over https');
  });

  test('sign-out ends the session on the server; an expired session ends too', async () => {
    const key = await server.key('sess-end');
    const cookie = await signIn(server.url, key);
    const home = await get(server.url, '/dashboard', cookie);
    const out = await post(server.url, '/dashboard/sign-out', hiddenFields(home.html, '/dashboard/sign-out'), {
      cookie,
    });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/dashboard/sign-in?ended=signed-out');
    assert.match(out.headers.getSetCookie()[0]!, /^plinth_session=; Path=\/dashboard; Max-Age=0/);
    const after = await get(server.url, '/dashboard', cookie);
    assert.equal(after.status, 303, 'the old cookie no longer opens anything');
    assert.equal(after.headers.get('location'), '/dashboard/sign-in?ended=expired');

    const second = await signIn(server.url, key);
    const id = second.split('=')[1]!;
    await server.database.write((trx) =>
      trx
        .updateTable('dashboard_sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id_hash', '=', sha256(id))
        .execute(),
    );
    assert.equal(
      (await get(server.url, '/dashboard', second)).headers.get('location'),
      '/dashboard/sign-in?ended=expired',
    );
  });

  test('a session ends within a second or so of its key’s revocation, even by another process', async () => {
    const key = await server.key('sess-revoke');
    const other = await server.key('sess-revoke');
    const cookie = await signIn(server.url, key);
    assert.equal((await get(server.url, '/dashboard/accounts', cookie)).status, 200);
    const keys = (await call(server.url, 'GET', '/v1/api_keys', { key: other })).body.data;
    const id = keys.find((k: { hint: string }) => k.hint.endsWith(key.slice(-4))).id;
    // The operator CLI's revocation writes the database only, as another process would: this server learns of it
    // when the verifier's second of trust in the key runs out.
    assert.ok(await revokeKeyById(operatorDeps(server.database), id));
    let page = await get(server.url, '/dashboard/accounts', cookie);
    for (let i = 0; i < 50 && page.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      page = await get(server.url, '/dashboard/accounts', cookie);
    }
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/dashboard/sign-in?ended=revoked');
    const rows = await server.database.db
      .selectFrom('dashboard_sessions')
      .selectAll()
      .where('key_id', '=', id)
      .execute();
    assert.deepEqual(rows, [], 'the session is deleted');
    const again = await post(server.url, '/dashboard/sign-in', { key });
    assert.equal(again.status, 401, 'and the revoked key cannot sign in again');
  });

  test('forms are refused without the session’s CSRF token, or from another origin; nothing changes', async () => {
    const key = await server.key('sess-csrf');
    const account = (
      await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } })
    ).body;
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, `/dashboard/accounts/${account.id}`, cookie);
    const action = `/dashboard/accounts/${account.id}/freeze`;
    const fields = { ...hiddenFields(page.html, action), reason: 'other' };
    const other = await signIn(server.url, await server.key('sess-csrf-other'));
    const otherPage = await get(server.url, '/dashboard', other);
    const refusals: [string, Awaited<ReturnType<typeof post>>][] = [
      ['no token', await post(server.url, action, { reason: 'other' }, { cookie })],
      ['a wrong token', await post(server.url, action, { ...fields, csrf: 'x'.repeat(43) }, { cookie })],
      [
        'another session’s token',
        await post(
          server.url,
          action,
          { ...fields, ...hiddenFields(otherPage.html, '/dashboard/sign-out') },
          { cookie },
        ),
      ],
      ['another origin', await post(server.url, action, fields, { cookie, origin: 'https://evil.example' })],
      ['no Origin', await post(server.url, action, fields, { cookie, origin: null })],
      ['Origin null', await post(server.url, action, fields, { cookie, origin: 'null' })],
    ];
    for (const [what, refused] of refusals) {
      assert.equal(refused.status, 403, what);
      assert.match(refused.html, /permission_denied/, what);
    }
    assert.equal((await call(server.url, 'GET', `/v1/fintech/accounts/${account.id}`, { key })).body.status, 'active');
    const accepted = await post(server.url, action, fields, { cookie });
    assert.equal(accepted.status, 303, 'the same form, from this origin with its token, is accepted');
    assert.equal((await call(server.url, 'GET', `/v1/fintech/accounts/${account.id}`, { key })).body.status, 'frozen');
    assert.equal(
      (await post(server.url, '/dashboard/sign-in', { key }, { origin: 'https://evil.example' })).status,
      403,
      'sign-in from another origin too',
    );
  });

  test('without a session every page redirects to sign-in, and every form is refused', async () => {
    assert.equal((await get(server.url, '/dashboard/accounts')).headers.get('location'), '/dashboard/sign-in');
    const post1 = await post(server.url, '/dashboard/api-keys', { name: 'x' });
    assert.equal(post1.status, 303);
    assert.equal(post1.headers.get('location'), '/dashboard/sign-in');
    assert.equal((await get(server.url, '/dashboard', 'plinth_session=' + 'A'.repeat(43))).status, 303);
  });
});

describe('dashboard sign-in failures', () => {
  const server = useServer({ AUTH_FAILURE_BURST: '3' });

  test('count against the per-address auth-failure budget, shared with the API', async () => {
    const key = await server.key('fail-budget');
    for (let i = 0; i < 3; i++) {
      const page = await post(server.url, '/dashboard/sign-in', { key: `sk_test_${'x'.repeat(38)}` });
      assert.equal(page.status, 401);
      assert.match(page.html, /id="key-error"[^>]*>The API key is not valid/);
    }
    const limited = await post(server.url, '/dashboard/sign-in', { key: 'sk_test_nope' });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(limited.html, /rate_limited/);
    const api = await call(server.url, 'GET', '/v1/api_keys', { key: 'sk_test_nope' });
    assert.equal(api.status, 429, 'the API sees the same budget spent');
    assert.equal((await post(server.url, '/dashboard/sign-in', { key })).status, 303, 'a good key still signs in');
  });
});

describe('DASHBOARD=off', () => {
  test('no console is served', async () => {
    const server = await startServer({ DASHBOARD: 'off' });
    try {
      assert.equal((await get(server.url, '/dashboard')).status, 404);
      assert.equal((await get(server.url, '/dashboard/sign-in')).status, 404);
    } finally {
      await server.close();
    }
  });
});
