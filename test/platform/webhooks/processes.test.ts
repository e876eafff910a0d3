/**
 * Issue 33, "Deliveries that keep pace": the server delivers webhooks from delivery processes of its own
 * (WEBHOOK_WORKERS), not from the API's event loop. Two of them share one database (SQLite or PostgreSQL) and still
 * hold one organisation to its bound (issue 23's fairness across processes); one that dies is started again, and the
 * events made meanwhile are delivered by its successor.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createKeyForOrgName } from '../../../src/modules/keys/api-keys.operator.ts';
import { freshDatabase, type TestDatabase } from '../../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { operatorDeps, type TestServer, UNLIMITED } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';
import { type Hanging, startHanging } from './hanging.ts';

const ACCOUNT = { type: 'business', country: 'US' };

/** The pids of the delivery processes that said they deliver, in the server's log, in order. */
function deliveryPids(server: ServerProcess): number[] {
  return server.lines.filter((l) => l.includes('"delivering webhooks"')).map((l) => JSON.parse(l).pid as number);
}

describe('delivery processes', () => {
  let db: TestDatabase;
  let database: Database;
  let server: ServerProcess;
  let hanging: Hanging;
  let receiver: Receiver;
  const org = (name: string): Promise<Client> => {
    const handle = {
      url: server.url,
      key: async (o: string, mode = 'sandbox' as const) => {
        return (await createKeyForOrgName(operatorDeps(database), o, mode))!.key;
      },
    };
    return client(handle as unknown as TestServer, name);
  };
  before(async () => {
    hanging = await startHanging();
    receiver = await startReceiver();
    db = await freshDatabase();
    server = await spawnServer({
      ...UNLIMITED,
      DATABASE_URL: db.url,
      WEBHOOK_WORKERS: '2',
      WEBHOOK_TIMEOUT_SECONDS: '30',
      LOG_LEVEL: 'info',
    });
    database = openDatabase(db.url);
  });
  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await database?.close();
    await db?.drop();
    await hanging?.close();
    await receiver?.close();
  });

  test('the server starts WEBHOOK_WORKERS delivery processes of their own', async () => {
    const pids = await eventually(async () => (deliveryPids(server).length >= 2 ? deliveryPids(server) : undefined));
    assert.equal(new Set(pids).size, 2);
    for (const pid of pids) assert.notEqual(pid, server.child.pid);
  });

  test('two delivery processes together hold at most 32 attempts of one sandbox organisation', async () => {
    const greedy = await org('greedy');
    for (let n = 0; n < 16; n++) {
      const made = await greedy.post('/v1/webhook_endpoints', {
        url: `${hanging.base}/greedy/${n}`,
        enabled_events: ['*'],
      });
      assert.equal(made.status, 200, made.text);
    }
    for (let i = 0; i < 4; i++) assert.equal((await greedy.post('/v1/fintech/accounts', ACCOUNT)).status, 200);
    // 64 deliveries. Each process alone would take 32 (WEBHOOK_CONCURRENCY 64): together they must stop at 32. Both
    // poll twice a second: time to overreach.
    await eventually(async () => (hanging.total() >= 32 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(hanging.most.get('greedy')! <= 32, `most held at once: ${hanging.most.get('greedy')}`);
  });

  test('a delivery process that dies is started again, and its successor delivers what was made meanwhile', async () => {
    const bystander = await org('bystander');
    const made = await bystander.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
    assert.equal(made.status, 200, made.text);
    const before = deliveryPids(server);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    const created = await bystander.post('/v1/fintech/accounts', ACCOUNT);
    assert.equal(created.status, 200, created.text);
    const theirs = (r: Receiver['received'][number]) => r.body.includes(created.body.id);
    await receiver.until((all) => all.some(theirs), 30_000);
    const now = deliveryPids(server);
    assert.ok(now.length >= before.length + 1, `delivery processes started: ${now.join(', ')}`);
    assert.equal(await (await fetch(`${server.url}/healthz`)).status, 200, 'the API process kept serving');
  });

  test("/metrics has the lag of the delivery processes' successes as a histogram", async () => {
    // The bystander's deliveries above succeeded in a delivery process: each is observed on the API's /metrics, from
    // the event's creation to the receiver's 2xx, in buckets fine enough to read a p99 against 1 s (issue 44).
    const text = await eventually(async () => {
      const scrape = await (await fetch(`${server.url}/metrics`)).text();
      return /^plinth_webhook_delivery_latency_seconds_count [1-9]/m.test(scrape) ? scrape : undefined;
    });
    for (const le of ['0.25', '0.5', '0.75', '1', '2.5'])
      assert.match(text, new RegExp(`^plinth_webhook_delivery_latency_seconds_bucket\\{le="${le}"\\} \\d+$`, 'm'));
  });
});
