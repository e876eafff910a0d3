import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { assertProblem } from '../../helpers/problem.ts';
import { type Receiver, startReceiver, webhookHeaders } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { client, verified } from '../../helpers/webhooks.ts';

const PATH = '/v1/webhook_endpoints';

describe('webhook endpoints', () => {
  const server = useServer();
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('create, retrieve, list, update, delete; the secret only at create, null on an idempotent replay', async () => {
    const api = await client(server, 'crud-org');
    const body = { url: receiver.url, enabled_events: ['fintech.account.created'], description: 'first' };
    const created = await api.post(PATH, body, { 'idempotency-key': 'we-1' });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), [
      'created_at',
      'description',
      'disabled_reason',
      'enabled_events',
      'id',
      'livemode',
      'metadata',
      'object',
      'secret',
      'status',
      'url',
    ]);
    const replay = await api.post(PATH, body, { 'idempotency-key': 'we-1' });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.secret, null);
    assert.equal(replay.body.id, created.body.id);
    const id = created.body.id;
    const { secret: _secret, ...shown } = created.body;
    assert.deepEqual((await api.get(`${PATH}/${id}`)).body, shown);
    assert.deepEqual((await api.get(PATH)).body.data, [shown]);

    const updated = await api.post(`${PATH}/${id}`, { enabled_events: ['*'], description: null, status: 'disabled' });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.body.enabled_events, ['*']);
    assert.equal(updated.body.description, null);
    assert.equal(updated.body.status, 'disabled');
    assert.equal(updated.body.disabled_reason, 'manual');
    const deleted = await api.del(`${PATH}/${id}`);
    assert.deepEqual(deleted.body, { id, object: 'webhook_endpoint', deleted: true });
    assertProblem(await api.get(`${PATH}/${id}`), 'resource_not_found');
    assertProblem(await api.del(`${PATH}/${id}`), 'resource_not_found');
    const pasted = await api.get(`${PATH}/${encodeURIComponent(created.body.secret)}`);
    assertProblem(pasted, 'resource_not_found');
    assert.doesNotMatch(pasted.text, /whsec_/, 'a secret sent in place of an id is never echoed');
  });

  test('validation: unknown event types, unknown fields, bad URLs', async () => {
    const api = await client(server, 'valid-org');
    assertProblem(await api.post(PATH, { url: receiver.url, enabled_events: ['nope'] }), 'parameter_invalid');
    assertProblem(await api.post(PATH, { url: receiver.url, enabled_events: [] }), 'parameter_invalid');
    assertProblem(await api.post(PATH, { url: receiver.url }), 'parameter_missing', 'enabled_events');
    assertProblem(await api.post(PATH, { url: receiver.url, enabled_events: ['*'], x: 1 }), 'parameter_unknown');
    for (const url of ['ftp://example.com/', 'not a url', 'https://user:pw@localhost/'])
      assertProblem(await api.post(PATH, { url, enabled_events: ['*'] }), 'parameter_invalid', 'url');
  });

  test('at most 16 endpoints per org and mode', async () => {
    const api = await client(server, 'limit-org');
    for (let i = 0; i < 16; i++)
      assert.equal((await api.post(PATH, { url: receiver.url, enabled_events: ['api_key.revoked'] })).status, 200);
    assertProblem(await api.post(PATH, { url: receiver.url, enabled_events: ['*'] }), 'webhook_endpoint_limit_reached');
    const live = await client(server, 'limit-org', 'live');
    assertProblem(await live.post(PATH, { url: receiver.url, enabled_events: ['*'] }), 'parameter_invalid', 'url');
  });

  test('rotation: during the overlap both secrets verify; with no overlap only the new one', async () => {
    const api = await client(server, 'rotate-org');
    const created = (await api.post(PATH, { url: receiver.url, enabled_events: ['*'] })).body;
    const rotated = await api.post(`${PATH}/${created.id}/rotate_secret`, { expire_previous_in_seconds: 3600 });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.secret, created.secret);
    const tested = await api.post(`${PATH}/${created.id}/test`);
    assert.equal(tested.body.type, 'webhook_endpoint.test');
    const [got] = await receiver.until((all) => all.some((r) => r.headers['webhook-id'] === tested.body.id));
    const delivery = receiver.received.find((r) => r.headers['webhook-id'] === tested.body.id)!;
    assert.equal(String(delivery.headers['webhook-signature']).split(' ').length, 2);
    assert.ok(got);
    new Webhook(created.secret).verify(delivery.body, webhookHeaders(delivery));
    new Webhook(rotated.body.secret).verify(delivery.body, webhookHeaders(delivery));

    const again = await api.post(`${PATH}/${created.id}/rotate_secret`, { expire_previous_in_seconds: 0 });
    const second = await api.post(`${PATH}/${created.id}/test`);
    await receiver.until((all) => all.some((r) => r.headers['webhook-id'] === second.body.id));
    const last = receiver.received.find((r) => r.headers['webhook-id'] === second.body.id)!;
    assert.equal(String(last.headers['webhook-signature']).split(' ').length, 1);
    assert.equal(verified(last, [again.body.secret]).id, second.body.id);
    assert.throws(() => new Webhook(rotated.body.secret).verify(last.body, webhookHeaders(last)));
    assertProblem(
      await api.post(`${PATH}/${created.id}/rotate_secret`, { expire_previous_in_seconds: 604_801 }),
      'parameter_invalid',
    );
  });

  test('a test event goes to the tested endpoint only', async () => {
    const api = await client(server, 'test-org');
    const other = await startReceiver();
    try {
      const a = (await api.post(PATH, { url: receiver.url, enabled_events: ['*'] })).body;
      await api.post(PATH, { url: other.url, enabled_events: ['*'] });
      const event = (await api.post(`${PATH}/${a.id}/test`)).body;
      assert.equal(event.data.object.id, a.id);
      await receiver.until((all) => all.some((r) => r.headers['webhook-id'] === event.id));
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!other.received.some((r) => r.headers['webhook-id'] === event.id));
      const deliveries = (await api.get(`/v1/events/${event.id}/deliveries`)).body.data;
      assert.deepEqual(
        deliveries.map((d: { endpoint_id: string }) => d.endpoint_id),
        [a.id],
      );
    } finally {
      await other.close();
    }
  });
});
