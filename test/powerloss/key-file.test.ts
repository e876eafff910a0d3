/**
 * Issue 39, item 11: a power cut in the first seconds of a new deployment must not leave the server unable to start.
 * The database and the key file the server generates beside it live on test/powerloss/lazyfs.py, which drops every
 * unsynced byte and directory entry at the cut. Before, the key file was written without any fsync: after the cut it
 * was gone (or empty), and the restart refused to start, the secrets already sealed under the lost key unreadable.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { send } from '../crash/http.ts';
import { type ServerProcess, startServer, stopAtOnce } from '../crash/server.ts';
import { BACKEND } from '../helpers/database.ts';
import { fuseUnavailable, LazyMount } from './fs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'plinth-keyfile-'));
const unavailable = BACKEND === 'sqlite' ? fuseUnavailable(scratch) : 'SQLite only';
const mount = new LazyMount(join(scratch, 'backing'), join(scratch, 'mount'));
let server: ServerProcess | undefined;
after(async () => {
  if (server !== undefined) stopAtOnce(server);
  if (unavailable === undefined) mount.forceUnmount();
  await new Promise((resolve) => setTimeout(resolve, 200));
  rmSync(scratch, { recursive: true, force: true });
});

test('a power cut right after the first start keeps the generated secrets key', {
  skip: unavailable === undefined ? false : `FUSE cannot run here: ${unavailable}`,
}, async () => {
  const env = { SECRETS_KEY: '', SECRETS_KEY_PREVIOUS: '' };
  const url = `sqlite:${join(mount.mountpoint, 'plinth.db')}`;
  await mount.mount();
  server = await startServer(url, env);
  const agent = new http.Agent();
  const signup = await send(agent, server.url, 'POST', '/v1/sandbox/signup', {}, { name: 'key file' });
  const key = JSON.parse(signup.text).api_key.key;
  const kyb = { legal_name: 'Sealed Corp', ein: '12-3456789' };
  const auth = { authorization: `Bearer ${key}` };
  const created = await send(agent, server.url, 'POST', '/v1/fintech/accounts', auth, {
    type: 'business',
    country: 'US',
    kyb,
  });
  assert.equal(created.status, 200, created.text);

  process.kill(-server.pid, 'SIGSTOP');
  mount.control('cut');
  process.kill(-server.pid, 'SIGKILL');
  await server.exited;
  await mount.unmount();
  await mount.mount();

  server = await startServer(url, env); // before: "a secrets key must be 32 bytes", or the key check's refusal
  const id = JSON.parse(created.text).id;
  const read = await send(agent, server.url, 'GET', `/v1/fintech/accounts/${id}`, auth);
  agent.destroy();
  assert.equal(read.status, 200, read.text);
  assert.equal(JSON.parse(read.text).kyb.legal_name, 'Sealed Corp');
  process.kill(server.pid, 'SIGTERM');
  await server.exited;
  server = undefined;
  await mount.unmount();
});
