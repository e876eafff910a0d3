import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAxeClean } from './dashboard-browser.ts';

/**
 * axe-core on a page as a browser without JavaScript shows it. A context with `javaScriptEnabled: false` runs no
 * timer, not even an injected script's, so axe (which waits on timers) never finishes there; this context keeps
 * JavaScript for axe and refuses the page's own scripts instead (the pages have no inline script: their CSP
 * forbids it). `from` lends its cookies, to check a signed-in page.
 */
export async function assertAxeCleanWithoutScripts(
  browser: Browser,
  url: string,
  name: string,
  from?: BrowserContext,
): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...(from === undefined ? {} : { storageState: await from.storageState() }),
  });
  try {
    await context.route(
      (u) => u.pathname.endsWith('.js'),
      (route) => route.abort(),
    );
    const page: Page = await context.newPage();
    await page.goto(url);
    await assertAxeClean(page, `${name} without its scripts`);
  } finally {
    await context.close();
  }
}
