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
import { chromium, type Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '../..');
const PACKAGE = join(ROOT, 'clients/typescript');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const CHROMIUM = '/usr/bin/chromium';

describe('the TypeScript client package', () => {
  test('type-checks under its own tsconfig (ES2022 + DOM, no Node types)', () => {
    const result = spawnSync(process.execPath, [TSC, '-p', PACKAGE, '--noEmit'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  test('its package.json ships compiled JavaScript and .d.ts, not TypeScript sources', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    assert.equal(manifest.exports['.'].default, './dist/src/index.js');
    assert.equal(manifest.exports['.'].types, './dist/src/index.d.ts');
    assert.deepEqual(manifest.files, ['dist']);
    assert.deepEqual(manifest.dependencies ?? {}, {}, 'no runtime dependencies');
  });
});

const browserAvailable = existsSync(CHROMIUM);
if (!browserAvailable) console.log(`# SKIPPED: the TypeScript client's browser test needs Debian's chromium at ${CHROMIUM}`);

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
  for await (const account of plinth.accounts.listAll({ limit: 1 })) ids.push(account.id);
  let error;
  try { await plinth.accounts.retrieve('acct_' + '0'.repeat(26)); } catch (e) { error = e; }
  return { a, b: b.id, again: again.id, ids, requestId: a.requestId, last: plinth.lastRequestId,
    error: { typed: error instanceof PlinthError, status: error.status, code: error.code, requestId: error.requestId } };
};
</script>`;

describe('the TypeScript client in a browser', { skip: browserAvailable ? false : `no Chromium at ${CHROMIUM}` }, () => {
  let plinth: TestServer;
  let site: Server;
  let siteUrl: string;
  let dist: string;
  let browser: Browser;

  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'plinth-ts-client-'));
    const build = spawnSync(process.execPath, [TSC, '-p', PACKAGE, '--outDir', dist], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stdout + build.stderr);
    plinth = await startServer();
    const upstream = new URL(plinth.url);
    site = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      } else if (path.startsWith('/client/')) {
        const file = join(dist, normalize(path.slice('/client/'.length)));
        if (!file.startsWith(dist) || !existsSync(file)) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
      } else {
        const forward = request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        req.pipe(forward);
      }
    });
    await new Promise<void>((ready) => site.listen(0, '127.0.0.1', ready));
    const address = site.address();
    assert.ok(address !== null && typeof address === 'object');
    siteUrl = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
    site?.closeAllConnections();
    await new Promise((done) => site?.close(done));
    await plinth?.close();
    rmSync(dist, { recursive: true, force: true });
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
    assert.deepEqual({ ...result.error, requestId: result.error.requestId.slice(0, 4) }, { typed: true, status: 404, code: 'resource_not_found', requestId: 'req_' });
  });
});
