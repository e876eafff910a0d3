import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BACKEND } from '../helpers/database.ts';
import { ROOT, run, spawnServer } from '../helpers/process.ts';

/** `npm start` in a process group of its own, as a supervisor or a terminal runs it; resolves once it listens. */
function npmStart(env: Record<string, string>): Promise<{ pid: number; exited: Promise<unknown> }> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let seen = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      seen += c.toString();
      if (seen.includes('Server listening at')) resolve({ pid: child.pid!, exited });
    });
    void exited.then(() => reject(new Error(`npm start exited before listening: ${stderr}`)));
  });
}

describe('the single-server lock on a SQLite database', { skip: BACKEND === 'sqlite' ? false : 'SQLite only' }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-lock-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a restart straight after kill -9 of the whole `npm start` process group always succeeds', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'crash.db')}` };
    for (let cycle = 0; cycle < 3; cycle++) {
      const server = await npmStart(env);
      process.kill(-server.pid, 'SIGKILL'); // the dead server may stay a zombie until reaped: the lock must not care
    }
    const last = await npmStart(env);
    process.kill(-last.pid, 'SIGTERM');
    await last.exited;
  });

  test('a pid file left by an older version, naming a live process, refuses nothing', async () => {
    const path = join(dir, 'pidfile.db');
    writeFileSync(`${path}.server.lock`, String(process.pid)); // this test's own pid: alive, and not a server
    const server = await spawnServer({ DATABASE_URL: `sqlite:${path}` });
    server.child.kill('SIGTERM');
    await server.exited;
  });

  test('a second server is refused whatever path names the file: a symlink, or a relative path', async () => {
    const path = join(dir, 'shared.db');
    const first = await spawnServer({ DATABASE_URL: `sqlite:${path}` });
    try {
      symlinkSync(path, join(dir, 'alias.db'));
      for (const url of [
        `sqlite:${join(dir, 'alias.db')}`,
        `sqlite:${join(dir, '.', '..', dir.split('/').at(-1)!, 'shared.db')}`,
      ]) {
        const second = await run(['src/server.ts'], { DATABASE_URL: url, PORT: '0' });
        assert.equal(second.code, 1, `${url} must be refused`);
        assert.match(second.stderr, /another Plinth server already serves/);
      }
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });
});
