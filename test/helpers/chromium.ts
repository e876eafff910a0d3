import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`): playwright-core drives it, and downloads no browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The `skip` option of a browser suite: false when Chromium is installed, else the reason, which is also printed
 * once as a `# SKIPPED` line so that a run without a browser says what it left out.
 */
export function skipWithoutChromium(suite: string): string | false {
  if (existsSync(CHROMIUM)) return false;
  console.log(`# SKIPPED: ${suite} needs Debian's chromium at ${CHROMIUM} (apt-get install chromium)`);
  return `no Chromium at ${CHROMIUM}`;
}

/** A headless Chromium as the browser tests run it: no sandbox (containers), no GPU, nothing it fetches by itself. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
