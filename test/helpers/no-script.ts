import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAxeClean } from './dashboard-browser.ts';

/**
 * axe-core on a page as a browser without JavaScript shows it. A context with `javaScriptEnabled: false` runs no
 * timer, not even an injected script's, so axe (which waits on timers) never finishes there; this context keeps
 * JavaScript for axe and refuses the page's own scripts instead (the pages have no inline script: their CSP
 * forbids it), and unwraps the page's `<noscript>` elements, whose content only a browser without script shows.
 * `from` lends its cookies, to check a signed-in page; `width` is the viewport's.
 */
export async function assertAxeCleanWithoutScripts(
  browser: Browser,
  url: string,
  name: string,
  from?: BrowserContext,
  width = 1280,
): Promise<void> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    ...(from === undefined ? {} : { storageState: await from.storageState() }),
  });
  try {
    await context.route(
      (u) => u.pathname.endsWith('.js'),
      (route) => route.abort(),
    );
    await context.route(
      (u) => u.href === new URL(url).href,
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        await route.fulfill({ response, body: (await response.text()).replace(/<\/?noscript>/g, '') });
      },
    );
    const page: Page = await context.newPage();
    await page.goto(url);
    await assertAxeClean(page, `${name} without its scripts at ${width} px`);
  } finally {
    await context.close();
  }
}
