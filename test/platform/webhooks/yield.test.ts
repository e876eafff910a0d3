import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { BUSY_HOLD_MS, BUSY_IN_FLIGHT } from '../../../src/platform/webhooks/busy.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

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

/** A request whose headers arrived and whose body never ends: in flight until its socket closes. */
function hangingRequest(url: string, key: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/fintech/accounts HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
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
