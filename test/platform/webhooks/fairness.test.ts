/**
 * Issue 23, finding 1: one tenant must not delay another's webhooks. Two free sandbox organisations each point 16
 * endpoints at a receiver that accepts the connection and never answers, then cause events; a third organisation's
 * delivery must still start within a second, and so must a live organisation's. Before the fix claims were first in,
 * first out across every organisation and mode, and every attempt slot of the process hung on the attackers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../../../src/platform/ssrf.ts';
import { MULTI_PROCESS_SKIP } from '../../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { loopbackOnly, startServer, type TestServer, useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';
import { type Hanging, startHanging } from './hanging.ts';

const ACCOUNT = { type: 'business', country: 'US' };
/** Hanging attempts give up after this, so that the code before the fix did deliver in the end (bounded). */
const TIMEOUT = { WEBHOOK_TIMEOUT_SECONDS: '2' };
// Answered only to the check at create: from the second lookup on it is loopback, refused for a live endpoint, so
// that a live attempt ends at once (this machine reaches no public address).
const PUBLIC = '93.184.216.34';
const lookups = new Map<string, number>();
const rebinding: Resolver = async (host) => {
  if (!host.endsWith('.test')) return loopbackOnly(host);
  const n = (lookups.get(host) ?? 0) + 1;
  lookups.set(host, n);
  return [{ address: n === 1 ? PUBLIC : '127.0.0.1', family: 4 }];
};

async function attackers(server: TestServer, hanging: Hanging, names: string[]): Promise<Client[]> {
  const orgs = await Promise.all(names.map((name) => client(server, name)));
  for (const [i, org] of orgs.entries())
    for (let n = 0; n < 16; n++) {
      const made = await org.post('/v1/webhook_endpoints', {
        url: `${hanging.base}/${names[i]}/${n}`,
        enabled_events: ['*'],
      });
      assert.equal(made.status, 200, made.text);
    }
  return orgs;
}

/** `rounds` events per attacker, interleaved: each becomes 16 deliveries to endpoints that never answer. */
async function attack(orgs: Client[], rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++)
    for (const org of orgs) assert.equal((await org.post('/v1/fintech/accounts', ACCOUNT)).status, 200);
}

/** Milliseconds from the answer that created an account to the receiver getting the event's delivery. */
async function deliveryDelay(org: Client, receiver: Receiver): Promise<number> {
  const created = await org.post('/v1/fintech/accounts', ACCOUNT);
  const answered = Date.now();
  assert.equal(created.status, 200, created.text);
  const theirs = (r: Receiver['received'][number]) => r.body.includes(created.body.id);
  const [got] = (await receiver.until((all) => all.some(theirs), 60_000)).filter(theirs);
  return got!.at - answered;
}

describe('webhook delivery is fair between organisations and modes', () => {
  let hanging: Hanging;
  let receiver: Receiver;
  after(async () => {
    await hanging?.close();
    await receiver?.close();
  });
  const server = useServer(TIMEOUT, { resolve: rebinding });
  let orgs: Client[];
  before(async () => {
    hanging = await startHanging();
    receiver = await startReceiver();
    orgs = await attackers(server, hanging, ['attacker-a', 'attacker-b']);
    await attack(orgs, 4);
    await eventually(async () => (hanging.total() >= 8 ? true : undefined));
  });

  test("two organisations' hanging endpoints do not delay a third organisation's delivery", async (t) => {
    await attack(orgs, 2); // a fresh backlog ahead of the bystander's event
    const bystander = await client(server, 'bystander');
    const made = await bystander.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
    assert.equal(made.status, 200, made.text);
    // The scene the issue describes: the attackers' attempts hang and more of their deliveries wait behind them.
    const backlog = await server.app.webhookDelivery.metrics.backlog();
    const hung = hanging.total();
    assert.ok(backlog >= 64 && hung >= 8, `backlog ${backlog}, attempts hanging ${hung}`);
    const delay = await deliveryDelay(bystander, receiver);
    t.diagnostic(`bystander's delivery after ${delay} ms (backlog ${backlog}, attempts hanging ${hung})`);
    assert.ok(delay < 1000, `the third organisation's delivery started ${delay} ms after its event (target < 1 s)`);
    // Each attacker holds at most 32 attempts (the bound for a sandbox organisation with WEBHOOK_CONCURRENCY 64).
    for (const name of ['attacker-a', 'attacker-b'])
      assert.ok(hanging.most.get(name)! <= 32, `${name} held ${hanging.most.get(name)} attempts at once`);
  });

  test('live deliveries do not wait behind sandbox ones', async (t) => {
    const live = await client(server, 'live-org', 'live');
    const made = await live.post('/v1/webhook_endpoints', {
      url: 'https://live-receiver.test/hook',
      enabled_events: ['*'],
    });
    assert.equal(made.status, 200, made.text);
    await attack(orgs, 2);
    const created = await live.post('/v1/fintech/accounts', ACCOUNT);
    const answered = Date.now();
    assert.equal(created.status, 200, created.text);
    const [event] = (await live.get('/v1/events?type=fintech.account.created&limit=1')).body.data;
    assert.equal(event.data.object.id, created.body.id);
    const attempt = await eventually(async () => {
      const [delivery] = (await live.get(`/v1/events/${event.id}/deliveries`)).body.data;
      return delivery?.attempts[0];
    }, 60_000);
    const delay = Date.now() - answered;
    t.diagnostic(`live delivery attempted after ${delay} ms`);
    // Refused at connect time (it resolves to loopback now): an attempt made, and recorded, at once.
    assert.match(attempt.error, /^refused/);
    assert.ok(delay < 1000, `the live delivery was attempted ${delay} ms after its event (target < 1 s)`);
  });
});

describe('the bound per organisation holds across server processes (PostgreSQL)', { skip: MULTI_PROCESS_SKIP }, () => {
  let hanging: Hanging;
  let first: TestServer;
  let second: ServerProcess;
  after(async () => {
    await hanging?.close();
    second?.child.kill('SIGTERM');
    await second?.exited;
    await first?.close();
  });

  test('two processes together hold at most 32 attempts of one sandbox organisation', async () => {
    hanging = await startHanging();
    first = await startServer({ WEBHOOK_TIMEOUT_SECONDS: '30' });
    second = await spawnServer({
      DATABASE_URL: first.databaseUrl,
      WEBHOOK_TIMEOUT_SECONDS: '30',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on',
    });
    const [org] = await attackers(first, hanging, ['greedy']);
    await attack([org!], 4);
    // 64 deliveries. Each process alone would take 32 (and before the fix 64): together they must stop at 32.
    await eventually(async () => (hanging.total() >= 32 ? true : undefined));
    // Both processes poll twice a second: time enough for either to overreach. The receiver counts every request.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(hanging.most.get('greedy')! <= 32, `most held at once: ${hanging.most.get('greedy')}`);
  });
});
