/**
 * The TypeScript client (clients/typescript) as a package: it type-checks under its own strict tsconfig, and its
 * compiled JavaScript runs in a browser. The full scenario on Node.js, from the packed tarball, is
 * clients/typescript/conformance.sh (`npm run test:clients`).
 *
 * The browser test serves one origin: the page, the compiled client under /client/, and every other path proxied
 * to a real Plinth. Plinth sends no CORS headers (a secret key belongs on a server, not in a web page), so a
 * browser can only call it same-origin; what is proven here is that the package itself needs nothing from Node.js.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { BACKEND } from '../helpers/database.ts';
import { useServer } from '../helpers/server.ts';

/** Nothing here depends on the database: it runs in the SQLite pass only. */
const ONCE = BACKEND === 'postgres' && 'backend-independent: runs in the SQLite pass';

const ROOT = join(import.meta.dirname, '../..');
const PACKAGE = join(ROOT, 'clients/typescript');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** The package compiled once into a temporary directory (the same tsc run type-checks it), for every test here. */
const dist = mkdtempSync(join(tmpdir(), 'plinth-ts-client-'));
const build = spawnSync(process.execPath, [TSC, '-p', PACKAGE, '--outDir', dist], { encoding: 'utf8' });
after(() => rmSync(dist, { recursive: true, force: true }));

describe('the TypeScript client package', { skip: ONCE }, () => {
  test('type-checks and compiles under its own tsconfig (ES2022 + DOM, no Node types)', () => {
    assert.equal(build.status, 0, build.stdout + build.stderr);
  });

  test('its package.json ships compiled JavaScript and .d.ts for import and require, not TypeScript sources', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.exports['.'], {
      import: { types: './dist/esm/src/index.d.ts', default: './dist/esm/src/index.js' },
      require: { types: './dist/cjs/src/index.d.ts', default: './dist/cjs/src/index.js' },
    });
    assert.deepEqual(manifest.files, ['dist', 'README.md']);
    assert.deepEqual(manifest.dependencies ?? {}, {}, 'no runtime dependencies');
  });

  test('the tarball `npm pack` leaves beside it, or in the checkout root, is ignored by git', () => {
    const { name, version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    const tarball = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`; // npm's name: plinth-client-0.1.0.tgz
    for (const path of [`clients/typescript/${tarball}`, tarball]) {
      const check = spawnSync('git', ['check-ignore', '--no-index', '-q', path], { cwd: ROOT });
      assert.equal(check.status, 0, `${path} is ignored`);
    }
  });
});

const skipBrowser = skipWithoutChromium("the TypeScript client's browser test");

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
const PAGE = `<!doctype html><meta charset="utf-8"><title>client</title><script type="module">
import { PlinthClient, PlinthError } from '/client/src/index.js';
window.run = async () => {
  const signup = await PlinthClient.signUp(location.origin);
  const plinth = new PlinthClient({ baseUrl: location.origin, apiKey: signup.api_key.key });
  const a = await plinth.accounts.create({ type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'Acme Corp' } });
  const b = await plinth.accounts.create({ type: 'business', country: 'GB' });
  const again = await plinth.accounts.retrieve(a.id);
  const ids = [];
  for await (const account of plinth.accounts.list({ limit: 1 })) ids.push(account.id);
  let error;
  try { await plinth.accounts.retrieve('acct_' + '0'.repeat(26)); } catch (e) { error = e; }
  return { a, b: b.id, again: again.id, ids, requestId: a.requestId, last: plinth.lastRequestId,
    error: { typed: error instanceof PlinthError, status: error.status, code: error.code, requestId: error.requestId } };
};
</script>`;

describe('the TypeScript client in a browser', { skip: skipBrowser }, () => {
  const plinth = useServer();
  let site: Server;
  let siteUrl: string;
  let browser: Browser;

  before(async () => {
    assert.equal(build.status, 0, build.stdout + build.stderr);
    const upstream = new URL(plinth.url);
    site = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      } else if (path.startsWith('/client/')) {
        const file = join(dist, normalize(path.slice('/client/'.length)));
        if (!file.startsWith(dist) || !existsSync(file)) res.writeHead(404).end();
        else
          res
            .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
            .end(readFileSync(file));
      } else {
        const forward = request(
          {
            hostname: upstream.hostname,
            port: upstream.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: upstream.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(forward);
      }
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    const address = site.address();
    assert.ok(address !== null && typeof address === 'object');
    siteUrl = `http://127.0.0.1:${address.port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    site?.closeAllConnections();
    await new Promise((done) => site?.close(done));
  });

  test('signs up, creates, retrieves, iterates pages and raises its typed error, with the browser fetch', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(siteUrl);
    // The callbacks run in the page, where `globalThis` is its window (the test's tsconfig has no DOM types).
    await page.waitForFunction(() => typeof (globalThis as { run?: unknown }).run === 'function');
    const result = await page.evaluate(() => (globalThis as unknown as { run: () => Promise<any> }).run());
    assert.deepEqual(errors, []);
    assert.equal(result.a.kyb.ein_last4, '6789');
    assert.equal(result.a.status, 'active');
    assert.equal(result.again, result.a.id);
    assert.deepEqual(result.ids, [result.b, result.a.id]);
    assert.match(result.requestId, /^req_/);
    assert.match(result.last, /^req_/);
    assert.deepEqual(
      { ...result.error, requestId: result.error.requestId.slice(0, 4) },
      { typed: true, status: 404, code: 'resource_not_found', requestId: 'req_' },
    );
  });
});

/**
 * What the live scenario cannot provoke on demand: a 503, a 409 "still running", a dead port, a server that never
 * answers. A scripted server answers each attempt from a list and records what the client sent.
 */
describe('the TypeScript client retries and times out as clients/README.md#what-every-client-does says', () => {
  interface Seen {
    method: string;
    url: string;
    key: string | undefined;
    body: string;
  }
  let seen: Seen[] = [];
  let script: Array<{ status: number; body?: unknown; headers?: Record<string, string> } | 'hang'> = [];
  let server: Server;
  let base: string;
  let client: any;
  const ACCOUNT = {
    id: 'acct_X',
    object: 'fintech.account',
    type: 'business',
    country: 'US',
    status: 'active',
    available_balance: { amount: 0, currency: 'USD' },
    current_balance: { amount: 0, currency: 'USD' },
    kyb: null,
    metadata: {},
    livemode: false,
    created_at: '2026-11-22T10:00Z',
  };
  const problem = (status: number, code: string) => ({
    status,
    body: { type: `/docs/errors#${code}`, title: code, status, detail: code, code, request_id: 'req_P' },
    headers: { 'content-type': 'application/problem+json', 'request-id': 'req_P' },
  });

  before(async () => {
    assert.equal(build.status, 0, build.stdout + build.stderr);
    client = await import(pathToFileURL(join(dist, 'src/index.js')).href);
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString();
      seen.push({
        method: req.method!,
        url: req.url!,
        key: req.headers['idempotency-key'] as string | undefined,
        body,
      });
      const next = script.shift() ?? { status: 500 };
      if (next === 'hang') return;
      res
        .writeHead(next.status, {
          'content-type': 'application/json',
          'request-id': `req_${seen.length}`,
          ...next.headers,
        })
        .end(JSON.stringify(next.body ?? {}));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const plinth = (options: Record<string, unknown> = {}) => {
    seen = [];
    return new client.PlinthClient({ baseUrl: base, apiKey: 'sk_test_x', ...options });
  };

  test('a create survives a 503 and a 409 in progress, sending one UUID v4 Idempotency-Key on every attempt', async () => {
    script = [
      { status: 503 },
      {
        ...problem(409, 'idempotency_request_in_progress'),
        headers: { ...problem(409, 'x').headers, 'retry-after': '1' },
      },
      { status: 200, body: ACCOUNT },
    ];
    const retries: number[] = [];
    const c = plinth({ onRetry: (r: { status: number }) => retries.push(r.status) });
    const account = await c.accounts.create({ type: 'business', country: 'US' });
    assert.equal(account.id, 'acct_X');
    assert.equal(account.requestId, 'req_3');
    assert.deepEqual(retries, [503, 409]);
    assert.equal(seen.length, 3);
    assert.match(seen[0]!.key!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(new Set(seen.map((s) => s.key)).size, 1);
  });

  test("a caller's key wins, a GET carries none, and a 400 or another 409 is not retried", async () => {
    script = [problem(400, 'parameter_invalid')];
    const c = plinth();
    await assert.rejects(
      c.accounts.create({ type: 'business', country: 'US' }, { idempotencyKey: 'mine' }),
      (e: any) => e instanceof client.PlinthError && e.status === 400 && e.requestId === 'req_P',
    );
    assert.deepEqual(
      seen.map((s) => s.key),
      ['mine'],
    );
    script = [problem(409, 'account_frozen')];
    await assert.rejects(c.accounts.listPage(), (e: any) => e.code === 'account_frozen');
    assert.deepEqual(
      seen.map((s) => s.key),
      ['mine', undefined],
    );
  });

  test('a secret is a plain string; on an idempotent replay reading it throws ReplayedSecretError', async () => {
    const apiKey = {
      id: 'key_X',
      object: 'api_key',
      mode: 'sandbox',
      hint: 'sk_test_…abcd',
      name: 'ci',
      livemode: false,
      created_at: '2026-11-22T10:00Z',
      revoked_at: null,
      last_used_at: null,
      permissions: null,
    };
    const endpoint = {
      id: 'we_X',
      object: 'webhook_endpoint',
      url: 'https://example.com/hook',
      enabled_events: ['*'],
      description: null,
      status: 'enabled',
      disabled_reason: null,
      livemode: false,
      created_at: '2026-11-22T10:00Z',
    };
    const replay = { 'idempotent-replayed': 'true' };
    script = [
      { status: 200, body: { ...apiKey, key: 'sk_test_secret' } },
      { status: 200, body: { ...apiKey, key: null }, headers: replay },
      { status: 200, body: { ...endpoint, secret: null }, headers: replay },
    ];
    const c = plinth();
    const created = await c.apiKeys.create({ name: 'ci' }, { idempotencyKey: 'k' });
    assert.deepEqual([created.key, created.replayed], ['sk_test_secret', false]);
    const again = await c.apiKeys.create({ name: 'ci' }, { idempotencyKey: 'k' });
    assert.equal(again.replayed, true);
    assert.equal(again.id, 'key_X');
    assert.throws(
      () => again.key,
      (e: any) => e instanceof client.ReplayedSecretError && e.field === 'key' && e.requestId === 'req_2',
    );
    assert.equal(JSON.stringify(again).includes('"key"'), false, 'a replay serialises without the missing secret');
    const rotated = await c.webhookEndpoints.rotateSecret('we_X', {}, { idempotencyKey: 'r' });
    assert.throws(
      () => rotated.secret,
      (e: any) => e instanceof client.ReplayedSecretError && e.field === 'secret',
    );
    assert.equal(rotated.url, 'https://example.com/hook');
  });

  test('an account number is a plain string in its create answer only (docs/api.md#bank-account-numbers-and-payments)', async () => {
    const number = {
      id: 'an_X',
      object: 'fintech.account_number',
      account_id: 'acct_X',
      routing_number: '110000000',
      account_number_last4: '9012',
      name: null,
      status: 'active',
      inbound_debits: 'allowed',
      livemode: false,
      created_at: '2026-11-28T10:00Z',
    };
    script = [
      { status: 200, body: { ...number, account_number: '123456789012' } },
      { status: 200, body: { ...number, account_number: null }, headers: { 'idempotent-replayed': 'true' } },
      { status: 200, body: { ...number, account_number: null } },
    ];
    const c = plinth();
    const created = await c.accountNumbers.create({ account_id: 'acct_X' }, { idempotencyKey: 'k' });
    assert.deepEqual([created.account_number, created.replayed], ['123456789012', false]);
    const again = await c.accountNumbers.create({ account_id: 'acct_X' }, { idempotencyKey: 'k' });
    assert.deepEqual([again.replayed, again.account_number_last4], [true, '9012']);
    assert.throws(
      () => again.account_number,
      (e: any) => e instanceof client.ReplayedSecretError && e.field === 'account_number',
    );
    assert.equal((await c.accountNumbers.retrieve('an_X')).account_number, null);
  });

  test('list follows the cursor: starting_after the last id walking older, ending_before the first walking newer', async () => {
    const page = (ids: string[], more: boolean) => ({
      status: 200,
      body: { object: 'list', data: ids.map((id) => ({ ...ACCOUNT, id })), has_more: more },
    });
    const c = plinth();
    script = [page(['acct_4', 'acct_3'], true), page(['acct_2'], false)];
    const older = [];
    for await (const a of c.accounts.list({ status: 'frozen', limit: 2 })) older.push(a.id);
    assert.deepEqual(older, ['acct_4', 'acct_3', 'acct_2']);
    assert.deepEqual(
      seen.map((s) => s.url),
      [
        '/v1/fintech/accounts?limit=2&status=frozen',
        '/v1/fintech/accounts?limit=2&starting_after=acct_3&status=frozen',
      ],
    );
    seen = [];
    script = [page(['acct_6', 'acct_5'], true), page(['acct_8', 'acct_7'], false)];
    const newer = [];
    for await (const a of c.accounts.list({ ending_before: 'acct_4', limit: 2 })) newer.push(a.id);
    assert.deepEqual(newer, ['acct_6', 'acct_5', 'acct_8', 'acct_7']);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/v1/fintech/accounts?limit=2&ending_before=acct_4', '/v1/fintech/accounts?limit=2&ending_before=acct_6'],
    );
  });

  test('filters go on the wire as deepObject, on every page; metadata updates send the object or ""', async () => {
    const page = (ids: string[], more: boolean) => ({
      status: 200,
      body: { object: 'list', data: ids.map((id) => ({ ...ACCOUNT, id })), has_more: more },
    });
    const c = plinth();
    script = [page(['tr_2'], true), page(['tr_1'], false)];
    const created = { gte: '2026-11-24T00:00Z', lt: new Date(Date.UTC(2026, 10, 25, 9, 30)), gt: undefined };
    const filters = { status: 'pending', created, metadata: { order: 'A-1', 'ship to': 'Zürich & co' }, limit: 1 };
    for await (const _ of c.transfers.list(filters));
    // Written by hand from docs/api.md#metadata-your-own-references: bracketed names, percent-encoded as URLSearchParams would; none `undefined`.
    const wire = [
      'created%5Bgte%5D=2026-11-24T00%3A00Z',
      'created%5Blt%5D=2026-11-25T09%3A30%3A00.000Z',
      'limit=1',
      'metadata%5Border%5D=A-1',
      'metadata%5Bship%20to%5D=Z%C3%BCrich%20%26%20co',
      'status=pending',
    ];
    const parts = (url: string) => [url.split('?')[0], ...url.split('?')[1]!.split('&').sort()];
    assert.deepEqual(
      seen.map((s) => parts(s.url)),
      [
        ['/v1/fintech/transfers', ...wire],
        ['/v1/fintech/transfers', ...wire.slice(0, 5), 'starting_after=tr_2', 'status=pending'],
      ],
    );
    const decoded = new URL(`http://x${seen[0]!.url}`).searchParams;
    assert.deepEqual([...decoded].filter(([name]) => name.includes('[')).sort(), [
      ['created[gte]', '2026-11-24T00:00Z'],
      ['created[lt]', '2026-11-25T09:30:00.000Z'],
      ['metadata[order]', 'A-1'],
      ['metadata[ship to]', 'Zürich & co'],
    ]);
    seen = [];
    script = [page([], false), page([], false)];
    await c.events.listPage({ created: { lte: '2026-11-24T00:00Z' } });
    await c.transactions.listPage('acct_X', { created: {} });
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/v1/events?created%5Blte%5D=2026-11-24T00%3A00Z', '/v1/fintech/accounts/acct_X/transactions'],
    );
    seen = [];
    script = [
      { status: 200, body: ACCOUNT },
      { status: 200, body: ACCOUNT },
    ];
    await c.accounts.update('acct_X', { metadata: { customer: 'c-42', old: '' } });
    await c.accounts.update('acct_X', { metadata: '' });
    assert.deepEqual(
      seen.map((s) => [s.method, s.url, JSON.parse(s.body)]),
      [
        ['POST', '/v1/fintech/accounts/acct_X', { metadata: { customer: 'c-42', old: '' } }],
        ['POST', '/v1/fintech/accounts/acct_X', { metadata: '' }],
      ],
    );
  });

  test('reversals, balances and statements: their paths, query and body, a key on the reversal only', async () => {
    const ok = (body: unknown) => ({ status: 200, body });
    const list = { object: 'list', data: [], has_more: false };
    script = [ok({ id: 'trr_1' }), ok(list), ok({ id: 'trr_1' }), ok({}), ok({}), ok({}), ok(ACCOUNT)];
    const c = plinth();
    await c.transfers.reverse('tr_X', { amount: 1000, description: 'refund' });
    await c.transfers.listReversalsPage('tr_X', { limit: 2, starting_after: 'trr_9' });
    await c.transfers.retrieveReversal('tr_X', 'trr_1');
    await c.accounts.balances('acct_X');
    await c.accounts.balances('acct_X', { at: new Date(Date.UTC(2026, 10, 25, 9, 30, 5, 7)) });
    await c.accounts.statement('acct_X', { from: '2026-11-01T00:00Z', to: new Date(Date.UTC(2026, 10, 25)) });
    await c.accounts.update('acct_X', { nickname: '' });
    // Written by hand from docs/api.md#correcting-a-transfer and #balances-over-time-and-statements.
    assert.deepEqual(
      seen.map((s) => [s.method, s.url, s.body === '' ? undefined : JSON.parse(s.body), s.key !== undefined]),
      [
        ['POST', '/v1/fintech/transfers/tr_X/reversals', { amount: 1000, description: 'refund' }, true],
        ['GET', '/v1/fintech/transfers/tr_X/reversals?limit=2&starting_after=trr_9', undefined, false],
        ['GET', '/v1/fintech/transfers/tr_X/reversals/trr_1', undefined, false],
        ['GET', '/v1/fintech/accounts/acct_X/balances', undefined, false],
        ['GET', '/v1/fintech/accounts/acct_X/balances?at=2026-11-25T09%3A30%3A05.007Z', undefined, false],
        [
          'GET',
          '/v1/fintech/accounts/acct_X/statement?from=2026-11-01T00%3A00Z&to=2026-11-25T00%3A00%3A00.000Z',
          undefined,
          false,
        ],
        ['POST', '/v1/fintech/accounts/acct_X', { nickname: '' }, true],
      ],
    );
  });

  test('retries are bounded: after maxRetries the last refusal is raised', async () => {
    script = [{ status: 502 }, { status: 502 }, problem(503, 'service_unavailable')];
    const c = plinth({ maxRetries: 2 });
    await assert.rejects(
      c.accounts.retrieve('acct_X'),
      (e: any) => e.status === 503 && e.code === 'service_unavailable',
    );
    assert.equal(seen.length, 3);
    assert.equal(c.retries, 2);
  });

  test('a dead port and a silent server become the typed error, status 0', async () => {
    const dead = new client.PlinthClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_x', maxRetries: 1 });
    await assert.rejects(
      dead.accounts.listPage(),
      (e: any) => e instanceof client.PlinthError && e.status === 0 && e.code === 'connection_failed',
    );
    assert.equal(dead.retries, 1);
    script = ['hang'];
    const started = Date.now();
    await assert.rejects(
      plinth({ timeoutMs: 200, maxRetries: 0 }).accounts.listPage(),
      (e: any) => e.status === 0 && e.code === 'timeout',
    );
    assert.ok(Date.now() - started < 5000);
  });
});
