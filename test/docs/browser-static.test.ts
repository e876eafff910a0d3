import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../helpers/chromium.ts';
import { assertAxeCleanWithoutScripts } from '../helpers/no-script.ts';
import { useServer } from '../helpers/server.ts';

describe('/docs and /docs/errors with JavaScript off', { skip: skipWithoutChromium('the no-script docs test') }, () => {
  const server = useServer();
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  /** A page with scripts disabled, recording every request that leaves this server. */
  async function noScript(path: string, width = 1280): Promise<{ page: Page; foreign: string[] }> {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.origin !== server.url) foreign.push(request.url());
    });
    await page.goto(`${server.url}${path}`);
    return { page, foreign };
  }

  test('the reference reads without script: operations, their fields and an example, nothing fetched elsewhere', async () => {
    const { page, foreign } = await noScript('/docs');
    for (const heading of ['Create an account', 'Void a pending transfer', 'Delete a webhook endpoint'])
      assert.ok(await page.locator('h2', { hasText: heading }).first().isVisible(), `the heading ${heading}`);
    const text = await page.locator('body').innerText();
    for (const expected of ['legal_name', 'available_balance', 'Request samples', '"country": "US"'])
      assert.ok(text.includes(expected), `the page shows ${expected}`);
    assert.deepEqual(foreign, [], 'every asset is served by Plinth itself');
    await assertAxeCleanWithoutScripts(browser, `${server.url}/docs`, 'the API reference');
  });

  test('the reference has contents without script: a link to every operation of the document, by tag', async () => {
    const document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[] }>>;
    };
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path));
    assert.ok(operations.length > 40);
    for (const width of [1280, 390]) {
      const { page } = await noScript('/docs', width);
      const contents = page.locator('nav[aria-labelledby=contents]');
      assert.ok(await contents.isVisible(), `the contents show at ${width} px`);
      const links = await contents
        .locator('a[href^="#"]')
        .evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href') ?? '', text: a.textContent ?? '' })));
      for (const operation of operations) {
        const tag = `#tag/${operation.tags[0]?.replaceAll(' ', '-')}`;
        const link = links.find((l) => l.href === `${tag}/operation/${operation.operationId}`);
        assert.ok(link, `a link to ${operation.operationId} under ${tag}`);
        assert.ok(link.text.includes(operation.summary), `the link to ${operation.operationId} says what it does`);
        assert.ok(
          links.some((l) => l.href === tag),
          `a link to the tag ${tag}`,
        );
      }
      for (const { href } of links)
        assert.equal(await page.locator(`[id="${href.slice(1)}"]`).count(), 1, `the target of ${href} is on the page`);
      await contents.getByRole('link', { name: 'Void a pending transfer' }).click();
      assert.ok(page.url().endsWith('#tag/Fintech-transfers/operation/voidTransfer'));
      const heading = page.locator('[id="tag/Fintech-transfers/operation/voidTransfer"] h2').first();
      const box = await heading.boundingBox();
      assert.ok(box !== null && box.y >= 0 && box.y < 900, `the operation is scrolled into view at ${width} px`);
      assert.equal(
        await page.locator('input[aria-label=Search]').isVisible(),
        false,
        'no search box that needs script',
      );
      await page.context().close();
      await assertAxeCleanWithoutScripts(browser, `${server.url}/docs`, 'the API reference', undefined, width);
    }
  });

  test('the error catalogue has contents linking to each entry, and a link back to the reference', async () => {
    const { page, foreign } = await noScript('/docs/errors');
    const contents = page.locator('nav[aria-labelledby=contents]');
    assert.ok(await contents.isVisible());
    await contents.getByRole('link', { name: 'country_unsupported' }).click();
    assert.ok(page.url().endsWith('/docs/errors#country_unsupported'));
    assert.match(await page.locator('#country_unsupported h2').innerText(), /country_unsupported — 400/);
    await page.getByRole('link', { name: '← The API reference' }).click();
    assert.equal(new URL(page.url()).pathname, '/docs');
    assert.deepEqual(foreign, []);
    await assertAxeCleanWithoutScripts(browser, `${server.url}/docs/errors`, 'the error catalogue');
  });
});
