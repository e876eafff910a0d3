import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { spawnServer } from '../helpers/process.ts';
import { CAMPAIGN_ENV } from './load.ts';

/**
 * Graceful shutdown under load (issue 11, README.md#operations): SIGTERM while eight keep-alive clients create accounts and
 * one client is half-way through uploading its body. Every request the server accepted completes (each answer a
 * client received is in the log, and each logged request reached its client), a request on a kept-alive connection
 * after the signal is a 503, new connections are refused, the process exits 0 without having to force anything
 * ("grace period over" never logged), and the log ends with "stopped", every line whole JSON.
 */
let db: TestDatabase;
before(async () => {
  db = await freshDatabase();
});
after(() => db.drop());

/** A POST whose head and first half of body go now; `finish()` sends the rest and resolves with the status line. */
function halfUpload(url: string, key: string) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ type: 'business', country: 'US' });
  const socket = connect(Number(port), hostname);
  let answer = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (c: Buffer) => {
      answer += c.toString();
      if (answer.includes('\r\n\r\n')) resolve(answer.split('\r\n')[0]!);
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? 'closed without an answer'));
    socket.on('error', () => socket.destroy());
  });
  socket.write(
    `POST /v1/fintech/accounts HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    finish: () => {
      socket.write(body.slice(10)); // and the connection stays open, idle, as a keep-alive client leaves it
      return answered;
    },
    close: () => socket.destroy(),
  };
}

const refused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });

test('SIGTERM under load: accepted requests complete, new connections refused, exit 0, no log line lost', async (t) => {
  const server = await spawnServer({ DATABASE_URL: db.url, ...CAMPAIGN_ENV, SHUTDOWN_GRACE_MS: '10000' });
  const signup = await fetch(`${server.url}/v1/sandbox/signup`, { method: 'POST' });
  const key = ((await signup.json()) as { api_key: { key: string } }).api_key.key;
  const received: { status: number; requestId: string | null }[] = [];
  const failed: string[] = [];
  let stopping = false;
  const client = async () => {
    for (let i = 0; i < 500 && !stopping; i++) {
      try {
        const r = await fetch(`${server.url}/v1/fintech/accounts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'business', country: 'US' }),
        });
        await r.arrayBuffer();
        received.push({ status: r.status, requestId: r.headers.get('request-id') });
      } catch (error) {
        failed.push(String((error as Error).cause ?? error)); // never sent, or refused: not accepted
        return;
      }
    }
  };
  // Begun before the load, so the server has surely parsed its head (and counts it in flight) when SIGTERM comes.
  const upload = halfUpload(server.url, key);
  const clients = Promise.all(Array.from({ length: 8 }, client));
  while (received.length < 200) await new Promise((r) => setTimeout(r, 10));
  server.child.kill('SIGTERM');
  while (!server.lines.some((l) => l.includes('shutting down'))) await new Promise((r) => setTimeout(r, 5));
  // The listener closes a moment after the signal is logged; from then on every new connection is refused.
  let attempts = 0;
  while (!(await refused(server.url)) && attempts < 200) attempts++;
  assert.ok(attempts < 200, 'new connections were still accepted after SIGTERM');
  const uploaded = await upload.finish();
  const exit = await server.exited;
  upload.close();
  assert.equal(uploaded, 'HTTP/1.1 200 OK', 'the upload in flight at SIGTERM completes');
  stopping = true;
  await clients;

  const ok = received.filter((r) => r.status === 200).length;
  t.diagnostic(`${received.length} answers (${ok} × 200, the rest 503), ${failed.length} clients refused at connect`);
  assert.deepEqual(exit, { code: 0, signal: null });
  const lines = server.lines.map((l) => JSON.parse(l)); // every line whole JSON
  assert.equal(lines.at(-1).msg, 'stopped');
  assert.ok(!lines.some((l) => /grace period over/.test(l.msg)), 'shutdown had to force connections closed');
  for (const r of received) assert.ok(r.status === 200 || r.status === 503, `a ${r.status} answer`);
  const logged = new Set(lines.filter((l) => l.msg === 'request').map((l) => l.request_id));
  for (const r of received) assert.ok(logged.has(r.requestId), `answer ${r.requestId} has no log line`);
  const fintech = lines.filter((l) => l.msg === 'request' && l.route === '/v1/fintech/accounts');
  assert.equal(fintech.length, received.length + 1, 'a logged request never reached its client'); // + the upload
  assert.ok(failed.length <= 8, `clients failing: ${failed.join('; ')}`);
});
