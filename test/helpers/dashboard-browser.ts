import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A page of a new browser context signed in to the dashboard at `url` with `key`, `width` px wide. */
export async function signedIn(browser: Browser, url: string, key: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
  const page = await context.newPage();
  await page.goto(`${url}/dashboard/sign-in`);
  await page.fill('#f-key', key);
  await page.click('button[type=submit]');
  await page.waitForURL(`${url}/dashboard`);
  return page;
}

/** axe-core on the page as it is (injected by the test, never served by the app): no serious or critical finding. */
export async function assertAxeClean(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE);
  const serious = await page.evaluate(async () => {
    const g = globalThis as any;
    const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: { target: string[] }[] }) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
  });
  assert.deepEqual(serious, [], `axe-core on ${name} (${page.url()})`);
}

/** What of `main` reaches past the viewport's right edge, and the inline ids laid out on more than two lines. */
export function layoutFaults(page: Page) {
  return page.evaluate(() => {
    const d = (globalThis as any).document;
    const width = d.documentElement.clientWidth;
    const name = (el: any) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
    const cutOff: string[] = [];
    for (const el of d.querySelectorAll('main *')) {
      if (el.closest('.visually-hidden, thead')) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 0.5) cutOff.push(`${name(el)} ends at ${Math.round(box.right)} px`);
    }
    const brokenIds = [...d.querySelectorAll('main td code')]
      .filter((el: any) => el.getClientRects().length > 2)
      .map((el: any) => `${name(el)} on ${el.getClientRects().length} lines`);
    return { scrollWidth: d.documentElement.scrollWidth as number, cutOff, brokenIds };
  });
}
