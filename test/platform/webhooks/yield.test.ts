import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { BUSY_HOLD_MS, BUSY_IN_FLIGHT } from '../../../src/platform/webhooks/busy.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';
import { type Hanging, startHanging } from './hanging.ts';

/** The most deliveries the receiver held at once, while each is answered after `delayMs`. */
function concurrencyOf(receiver: Receiver, delayMs: number): () => number {
  let open = 0;
  let most = 0;
  receiver.answer = () => {
    open++;
    most = Math.max(most, open);
    setTimeout(() => open--, delayMs);
    return { status: 200, delayMs };
  };
  return () => most;
}

/**
 * A request whose headers arrived and whose body never ends: in flight until its socket closes. It resolves once the
 * server answered `100 Continue`, which Node sends as it hands the request to the app: from then on the request
 * counts as in flight (resolving at connect let the test's next requests overtake it on a loaded machine).
 */
function hangingRequest(url: string, key: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/fintech/accounts HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
      );
    });
    socket.once('data', (chunk) => {
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 100')) return reject(new Error(`not 100: ${chunk}`));
      socket.write('{');
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('webhook deliveries yield to a busy API', () => {
  const server = useServer({ WEBHOOK_CONCURRENCY: '8' });
  let receiver: Receiver;
  let api: Client;
  before(async () => {
    receiver = await startReceiver();
    api = await client(server, 'yielding');
    // On PostgreSQL the key's event is numbered (and fanned out) within a second: numbered first, it is not
    // delivered to the endpoint below, where it could overlap the deliveries counted while the API is busy.
    await api.get('/v1/events');
    const made = await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
    assert.equal(made.status, 200, made.text);
  });
  after(() => receiver.close());

  const createAccounts = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const reply = await api.post('/v1/fintech/accounts', { type: 'business', country: 'US' });
      assert.equal(reply.status, 200, reply.text);
    }
  };

  test(`with ${BUSY_IN_FLIGHT} requests in flight one attempt at a time, and full concurrency once they end`, async () => {
    const hanging = await Promise.all(
      Array.from({ length: BUSY_IN_FLIGHT }, () => hangingRequest(server.url, api.key)),
    );
    try {
      const busyMost = concurrencyOf(receiver, 100);
      await createAccounts(6);
      await receiver.until((all) => all.length >= 6);
      assert.equal(busyMost(), 1, 'one delivery at a time while the API is busy');
    } finally {
      for (const socket of hanging) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, BUSY_HOLD_MS + 100)); // closed, and the hold is over
    const quietMost = concurrencyOf(receiver, 300);
    await createAccounts(6);
    await receiver.until((all) => all.length >= 12);
    assert.ok(quietMost() > 1, `deliveries run side by side again (at most ${quietMost()} at once)`);
  });
});

describe('while the API is busy, an attempt stalled on its receiver does not hold the turn (issue 23)', () => {
  // Attempts wait 30 s for an answer: before the fix the bystander's delivery waited for the whole of it.
  const server = useServer({ WEBHOOK_TIMEOUT_SECONDS: '30' });
  let receiver: Receiver;
  let stalled: Hanging;
  before(async () => {
    receiver = await startReceiver();
    stalled = await startHanging();
  });
  after(async () => {
    await stalled.close();
    await receiver.close();
  });

  test("another organisation's delivery starts while the stalled attempt still waits", async () => {
    const attacker = await client(server, 'stalling');
    const bystander = await client(server, 'patient');
    for (const [api, url] of [
      [attacker, `${stalled.base}/stalling/0`],
      [bystander, receiver.url],
    ] as const)
      assert.equal((await api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] })).status, 200);
    const hanging = await Promise.all(
      Array.from({ length: BUSY_IN_FLIGHT }, () => hangingRequest(server.url, attacker.key)),
    );
    try {
      assert.equal((await attacker.post('/v1/fintech/accounts', { type: 'business', country: 'US' })).status, 200);
      await eventually(async () => (stalled.total() === 1 ? true : undefined));
      const account = await bystander.post('/v1/fintech/accounts', { type: 'business', country: 'US' });
      assert.equal(account.status, 200);
      await receiver.until((all) => all.some((r) => r.body.includes(account.body.id)), 10_000);
      assert.equal(stalled.total(), 1, 'the stalled attempt is still waiting for its answer');
      assert.equal(stalled.ended.get('stalling') ?? 0, 0);
    } finally {
      for (const socket of hanging) socket.destroy();
    }
  });
});
