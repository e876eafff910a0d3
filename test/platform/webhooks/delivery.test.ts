import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type Received, type Receiver, startReceiver, webhookHeaders } from '../../helpers/receiver.ts';
import { call, useServer } from '../../helpers/server.ts';

const ACCOUNT = { type: 'business', country: 'US' };

/** The delivery among `received` that `hook` verifies; fails when none does. */
function verifiedBy(hook: Webhook, received: Received[]): Received {
  const found = received.find((r) => {
    try {
      hook.verify(r.body, webhookHeaders(r));
      return true;
    } catch {
      return false;
    }
  });
  assert.ok(found, 'a delivery signed with this secret');
  return found;
}

describe('webhook delivery, verified by the reference standardwebhooks library', () => {
  const server = useServer({ WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms', WEBHOOK_TIMEOUT_SECONDS: '2' });
  let receiver: Receiver;
  let key: string;
  const post = (path: string, json: unknown = {}, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', path, { key, json, headers });
  const get = (path: string) => call(server.url, 'GET', path, { key });
  const endpoint = async (json: Record<string, unknown> = {}) => {
    const reply = await post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'], ...json });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };
  const forEvent = (id: string) => receiver.until((all) => all.some((r) => r.headers['webhook-id'] === id));

  before(async () => {
    receiver = await startReceiver();
    key = await server.key('hooks');
  });
  after(() => receiver.close());

  test('create shows the secret once; the event arrives signed, verifies, and equals the stored event', async () => {
    const created = await endpoint({ description: 'main' });
    assert.match(created.id, /^we_[0-9A-Z]{26}$/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(created.status, 'enabled');
    assert.equal(created.disabled_reason, null);
    const read = await get(`/v1/webhook_endpoints/${created.id}`);
    assert.equal(read.body.secret, undefined, 'never shown again');
    assert.doesNotMatch(read.text, /whsec_/);

    const account = (await post('/v1/fintech/accounts', ACCOUNT, { 'idempotency-key': 'acct-1' })).body;
    const list = await get('/v1/events?type=fintech.account.created&limit=1');
    const event = list.body.data[0];
    assert.equal(event.data.object.id, account.id);
    assert.deepEqual(event.request.idempotency_key, 'acct-1');
    const [got] = (await forEvent(event.id)).filter((r) => r.headers['webhook-id'] === event.id);
    const verified = new Webhook(created.secret).verify(got!.body, webhookHeaders(got!));
    assert.deepEqual(verified, event);
    assert.deepEqual(JSON.parse(got!.body), (await get(`/v1/events/${event.id}`)).body);
    assert.equal(got!.headers['content-type'], 'application/json');
  });

  test('a forged or stale signature is refused by the reference library', async () => {
    // This org's second endpoint shares the receiver: wait for both deliveries, then take the one the new secret signs.
    const { secret } = await endpoint();
    const account = (await post('/v1/fintech/accounts', ACCOUNT)).body;
    const event = (await get('/v1/events?type=fintech.account.created&limit=1')).body.data[0];
    assert.equal(event.data.object.id, account.id);
    const both = await receiver.until((all) => all.filter((r) => r.headers['webhook-id'] === event.id).length >= 2);
    const hook = new Webhook(secret);
    const got = verifiedBy(
      hook,
      both.filter((r) => r.headers['webhook-id'] === event.id),
    );
    const headers = webhookHeaders(got);
    assert.throws(() => hook.verify(got.body.replace('"US"', '"GB"'), headers), /signature/i);
    const forged = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    assert.throws(() => hook.verify(got.body, forged));
    const old = Math.floor(Date.now() / 1000) - 600;
    assert.throws(() => hook.verify(got.body, { ...headers, 'webhook-timestamp': String(old) }), /timestamp/i);
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, headers));
  });

  test('an IPv6 endpoint with a path and a query is posted to that address, path and query', async () => {
    // attempt.ts passes the URL's parts to Node as options (not the URL): the brackets come off the address, the
    // port, path and query stay, and the Host header names the endpoint as written.
    const seen: { url: string; host: string; method: string }[] = [];
    const v6 = createServer((request, response) => {
      seen.push({ url: request.url ?? '', host: request.headers.host ?? '', method: request.method ?? '' });
      request.resume();
      request.on('end', () => response.end('ok'));
    });
    await new Promise<void>((resolve) => v6.listen(0, '::1', resolve));
    try {
      const { port } = v6.address() as { port: number };
      await endpoint({ url: `http://[::1]:${port}/hook/v6?tenant=a%20b&n=1` });
      assert.equal((await post('/v1/fintech/accounts', ACCOUNT)).status, 200);
      const until = Date.now() + 30_000;
      while (seen.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(seen[0], { url: '/hook/v6?tenant=a%20b&n=1', host: `[::1]:${port}`, method: 'POST' });
    } finally {
      v6.closeAllConnections();
      await new Promise((resolve) => v6.close(resolve));
    }
  });
});
