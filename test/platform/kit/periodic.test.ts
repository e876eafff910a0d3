/**
 * The one helper for periodic jobs (retention purges, the pending-transfer expiry sweep): passes never overlap, a
 * failing pass is logged and retried, and stop() resolves only once the pass in progress has ended, so that the
 * database the pass writes to is never closed under it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { runEvery } from '../../../src/platform/kit/periodic.ts';

const logged: { level: string; message: string }[] = [];
const log = {
  info: (_: object, message: string) => logged.push({ level: 'info', message }),
  warn: (_: object, message: string) => logged.push({ level: 'warn', message }),
} as unknown as FastifyBaseLogger;

/** Resolves once `check()` holds, looking again after each turn of the event loop's timers. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
}

test('stop() waits for the pass in progress, and no pass starts after it', async () => {
  let passes = 0;
  let release!: () => void;
  const stop = runEvery(1, 'test job', log, async () => {
    passes += 1;
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return 0;
  });
  await until(() => passes === 1);
  let stopped = false;
  const stopping = stop().then(() => {
    stopped = true;
  });
  // Ticks go by while the pass is held: none starts a second pass, and stop() does not resolve.
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(passes, 1, 'a tick during a pass, or after stop(), started another pass');
  assert.equal(stopped, false, 'stop() resolved while a pass was still running');
  release();
  await stopping;
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(passes, 1, 'a pass started after stop()');
});

test('a pass that fails is logged and tried again; a pass that did something is logged with its count', async () => {
  logged.length = 0;
  let calls = 0;
  const stop = runEvery(1, 'test job', log, async () => {
    calls += 1;
    if (calls === 1) throw new Error('the database is away');
    return calls === 2 ? 3 : 0;
  });
  await until(() => calls >= 3);
  await stop();
  assert.deepEqual(logged.slice(0, 2), [
    { level: 'warn', message: 'test job failed; will retry' },
    { level: 'info', message: 'test job: 3 rows' },
  ]);
});
