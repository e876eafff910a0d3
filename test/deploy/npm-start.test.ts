/**
 * `npm start` and the process that started it (README, Quickstart): stopping npm by its process id stops the server,
 * whether npm passes the signal on (kill -TERM) or dies without a word (kill -9); and the server says once, for a
 * person, where the API and the dashboard are.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BACKEND, freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { ROOT } from '../helpers/process.ts';

/** `npm start` in a process group of its own; resolves once the server listens, with what it printed so far. */
function npmStart(env: Record<string, string>) {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.stderr!.on('data', (c: Buffer) => (output.stderr += c.toString()));
  return new Promise<{ pid: number; url: string; output: typeof output; exited: Promise<unknown> }>(
    (resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        output.stdout += c.toString();
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output.stdout);
        if (match) resolve({ pid: child.pid!, url: match[1]!, output, exited });
      });
      void exited.then(() => reject(new Error(`npm start exited before listening: ${output.stderr}`)));
    },
  );
}

const answers = (url: string) =>
  fetch(`${url}/healthz`).then(
    (r) => r.status === 200,
    () => false,
  );

describe(`npm start stops with its npm (${BACKEND})`, () => {
  const groups: number[] = [];
  const databases: TestDatabase[] = [];
  after(async () => {
    for (const group of groups)
      try {
        process.kill(-group, 'SIGKILL'); // whatever a failed test left of its own npm start
      } catch {}
    for (const db of databases) await db.drop();
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    // No time is asserted: the test waits until the port stops answering (before, it answered for ever).
    test(`kill -${signal === 'SIGTERM' ? 'TERM' : '9'} <npm pid>: the server stops answering`, {
      timeout: 90_000,
    }, async () => {
      const started = Date.now();
      const db = await freshDatabase();
      databases.push(db);
      const server = await npmStart({ DATABASE_URL: db.url });
      groups.push(server.pid);
      assert.ok(await answers(server.url));
      while (!server.output.stderr.includes('serving the API') && Date.now() < started + 30_000) await sleep(25);
      assert.match(
        server.output.stderr,
        new RegExp(`serving the API at ${server.url}/v1 and the dashboard at ${server.url}/dashboard`),
        'one line for a person, on stderr',
      );
      process.kill(server.pid, signal);
      while (await answers(server.url)) await sleep(100);
    });
  }
});
