import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { call, useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const SERIES = 'plinth_webhook_backlog_by_org';

/** The samples of plinth_webhook_backlog_by_org: `org`, `mode` and value. */
async function backlogByOrg(url: string): Promise<{ org: string; mode: string; value: number }[]> {
  const metrics = await call(url, 'GET', '/metrics');
  assert.equal(metrics.status, 200);
  return metrics.text
    .split('\n')
    .filter((line) => line.startsWith(`${SERIES}{`))
    .map((line) => {
      const [, org, mode, value] = /^\w+\{org="([^"]+)",mode="([^"]+)"\} (\d+)$/.exec(line) ?? [];
      assert.ok(value !== undefined, line);
      return { org: org!, mode: mode!, value: Number(value) };
    });
}

describe('/metrics: the webhook backlog of the ten organisations with the most, and the rest as "other"', () => {
  // Every attempt fails (500) and waits an hour for its retry: the backlog holds still while it is read.
  const server = useServer({ WEBHOOK_RETRY_SCHEDULE: '1h' });
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    receiver.answer = () => ({ status: 500 });
  });
  after(() => receiver.close());

  /** An organisation with one endpoint and `events` events, each one pending delivery. */
  async function org(name: string, events: number): Promise<void> {
    const api = await client(server, name);
    await api.get('/v1/events'); // its key's event is numbered (and fanned out) before the endpoint exists
    assert.equal((await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] })).status, 200);
    for (let i = 0; i < events; i++) assert.equal((await api.post('/v1/fintech/accounts', ACCOUNT)).status, 200);
  }
  const total = async () => (await backlogByOrg(server.url)).reduce((n, s) => n + s.value, 0);

  test('twelve organisations: ten by name, two summed; a thirteenth with more pushes one out', async () => {
    for (let n = 1; n <= 12; n++) await org(`backlog-${n}`, n);
    await eventually(async () => ((await total()) === 78 ? true : undefined)); // 1 + 2 + … + 12
    let samples = await backlogByOrg(server.url);
    const named = samples.filter((s) => s.org !== 'other');
    assert.deepEqual(
      named.map((s) => s.value).sort((a, b) => b - a),
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
    );
    for (const s of named) assert.match(s.org, /^org_[0-9A-Z]{26}$/);
    assert.ok(named.every((s) => s.mode === 'sandbox'));
    assert.deepEqual(
      samples.filter((s) => s.org === 'other'),
      [
        { org: 'other', mode: 'live', value: 0 },
        { org: 'other', mode: 'sandbox', value: 3 },
      ],
    );

    await org('backlog-13', 20);
    await eventually(async () => ((await total()) === 98 ? true : undefined));
    samples = await backlogByOrg(server.url);
    assert.equal(samples.length, 12, 'still ten organisations and two "other" series');
    assert.deepEqual(
      samples
        .filter((s) => s.org !== 'other')
        .map((s) => s.value)
        .sort((a, b) => b - a),
      [20, 12, 11, 10, 9, 8, 7, 6, 5, 4],
    );
    assert.equal(samples.find((s) => s.org === 'other' && s.mode === 'sandbox')?.value, 6);
  });
});
