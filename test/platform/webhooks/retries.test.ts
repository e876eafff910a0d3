import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client, verified } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };

describe('retries, 410, the delivery log and replay', () => {
  const server = useServer({ WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms', WEBHOOK_TIMEOUT_SECONDS: '2' });
  const receivers: Receiver[] = [];
  const outcomes = new Set<string>();
  const setup = async (org: string) => {
    const api = await client(server, org);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await api.post('/v1/webhook_endpoints', {
      url: receiver.url,
      enabled_events: ['fintech.account.created'],
    });
    assert.equal(created.status, 200, created.text);
    return { api, receiver, endpoint: created.body };
  };
  const newEvent = async (api: Client) => {
    await api.post('/v1/fintech/accounts', ACCOUNT);
    return (await api.get('/v1/events?type=fintech.account.created&limit=1')).body.data[0];
  };
  const deliveryOf = async (api: Client, eventId: string) =>
    (await api.get(`/v1/events/${eventId}/deliveries`)).body.data[0];

  before(async () => {
    server.app.webhookDelivery.metrics.onAttempt(({ outcome, durationSeconds, latencySeconds }) => {
      assert.ok(durationSeconds >= 0);
      if (outcome === 'succeeded') assert.ok(latencySeconds! >= 0);
      outcomes.add(outcome);
    });
  });
  after(async () => {
    for (const r of receivers) await r.close();
  });

  test('500 three times, then 200: the same webhook-id each time, and a log of four attempts', async () => {
    const { api, receiver, endpoint } = await setup('retry-org');
    receiver.answer = (_r, i) => ({ status: i < 3 ? 500 : 200 });
    const event = await newEvent(api);
    await receiver.until((all) => all.length >= 4);
    assert.deepEqual(
      receiver.received.map((r) => r.headers['webhook-id']),
      [event.id, event.id, event.id, event.id],
    );
    for (const r of receiver.received) assert.equal(verified(r, [endpoint.secret]).id, event.id);
    const delivery = await eventually(async () => {
      const d = await deliveryOf(api, event.id);
      return d.status === 'succeeded' ? d : undefined;
    });
    assert.deepEqual(
      delivery.attempts.map((a: { response_status: number }) => a.response_status),
      [500, 500, 500, 200],
    );
    assert.equal(delivery.next_attempt_at, null);
    assert.equal(delivery.endpoint_id, endpoint.id);
    const byStatus = await api.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?status=succeeded`);
    assert.deepEqual(
      byStatus.body.data.map((d: { id: string }) => d.id),
      [delivery.id],
    );
    const none = await api.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?status=failed`);
    assert.deepEqual(none.body.data, []);
  });

  test('the schedule spent, the delivery is failed; a retry makes one more attempt, outside the schedule', async () => {
    const { api, receiver } = await setup('spent-org');
    receiver.answer = () => ({ status: 503 });
    const event = await newEvent(api);
    const failed = await eventually(async () => {
      const d = await deliveryOf(api, event.id);
      return d.status === 'failed' ? d : undefined;
    });
    assert.equal(failed.attempts.length, 5, 'the first attempt and four retries');
    receiver.answer = () => ({ status: 204 });
    const retried = await api.post(`/v1/webhook_deliveries/${failed.id}/retry`);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.status, 'pending');
    const after = await eventually(async () => {
      const d = await deliveryOf(api, event.id);
      return d.status === 'succeeded' ? d : undefined;
    });
    assert.equal(after.attempts.length, 6);
    assert.equal(receiver.received.at(-1)!.headers['webhook-id'], event.id);
  });

  test('Retry-After is honoured: the next attempt waits for it', async () => {
    const { api, receiver } = await setup('retry-after-org');
    receiver.answer = (_r, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 });
    await newEvent(api);
    await receiver.until((all) => all.length >= 2, 10_000);
    const gap = receiver.received[1]!.at - receiver.received[0]!.at;
    assert.ok(gap >= 1900, `waited ${gap} ms, not the 200 ms of the schedule`);
  });

  test('410 disables the endpoint (gone); retrying its delivery is 409 webhook_endpoint_disabled', async () => {
    const { api, receiver, endpoint } = await setup('gone-org');
    receiver.answer = () => ({ status: 410 });
    const event = await newEvent(api);
    const disabled = await eventually(async () => {
      const e = (await api.get(`/v1/webhook_endpoints/${endpoint.id}`)).body;
      return e.status === 'disabled' ? e : undefined;
    });
    assert.equal(disabled.disabled_reason, 'gone');
    assert.equal(receiver.received.length, 1, 'no retry after 410');
    const delivery = await deliveryOf(api, event.id);
    assert.equal(delivery.status, 'failed');
    assertProblem(await api.post(`/v1/webhook_deliveries/${delivery.id}/retry`), 'webhook_endpoint_disabled');
    assertProblem(await api.post(`/v1/webhook_endpoints/${endpoint.id}/test`), 'webhook_endpoint_disabled');
    await newEvent(api);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.received.length, 1, 'a disabled endpoint gets nothing');

    receiver.answer = () => ({ status: 200 });
    const enabled = await api.post(`/v1/webhook_endpoints/${endpoint.id}`, { status: 'enabled' });
    assert.equal(enabled.body.status, 'enabled');
    assert.equal(enabled.body.disabled_reason, null);
    const retried = await api.post(`/v1/webhook_deliveries/${delivery.id}/retry`);
    assert.equal(retried.status, 200);
    await receiver.until((all) => all.length >= 2);
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const { api, receiver } = await setup('redirect-org');
    const target = await startReceiver();
    receivers.push(target);
    receiver.answer = (_r, i) => (i === 0 ? { status: 302, headers: { location: target.url } } : { status: 200 });
    const event = await newEvent(api);
    await receiver.until((all) => all.length >= 2);
    assert.equal(target.received.length, 0);
    const delivery = await eventually(async () => {
      const d = await deliveryOf(api, event.id);
      return d.status === 'succeeded' ? d : undefined;
    });
    assert.equal(delivery.attempts[0].response_status, 302);
  });

  test('a receiver slower than WEBHOOK_TIMEOUT_SECONDS is a timed-out attempt, retried', async () => {
    const { api, receiver } = await setup('slow-org');
    receiver.answer = (_r, i) => ({ status: 200, delayMs: i === 0 ? 3000 : 0 });
    const event = await newEvent(api);
    const delivery = await eventually(async () => {
      const d = await deliveryOf(api, event.id);
      return d.status === 'succeeded' ? d : undefined;
    });
    assert.equal(delivery.attempts[0].response_status, null);
    assert.match(delivery.attempts[0].error, /timed out/);
  });

  test('metrics hooks: attempts by outcome with their latency, and the backlog', async () => {
    for (const outcome of ['succeeded', 'retrying', 'failed', 'gone']) assert.ok(outcomes.has(outcome), outcome);
    assert.equal(typeof (await server.app.webhookDelivery.metrics.backlog()), 'number');
  });
});
