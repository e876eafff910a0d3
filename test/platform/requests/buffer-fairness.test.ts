import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DROPPED_TOP_ORGS } from '../../../src/modules/requests/recorder-metrics.ts';
import { allEntries } from '../../helpers/request-log.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

/** The series of `name` on /metrics, by their labels as written (`{org="…"}`). */
async function series(url: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = line.match(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`));
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

async function send(api: Client, n: number): Promise<string[]> {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const reply = await api.get('/v1/fintech/accounts');
    assert.equal(reply.status, 200);
    ids.push(reply.headers.get('request-id')!);
  }
  return ids;
}

async function orgOf(server: TestServer, api: Client): Promise<string> {
  const row = await server.database.db
    .selectFrom('request_logs')
    .select('org_id')
    .where('api_key_hint', '=', `sk_test_…${api.key.slice(-4)}`)
    .executeTakeFirstOrThrow();
  return row.org_id;
}

// Issue 30, finding 2: one tenant's flood filled the shared buffer and another tenant's entries were dropped.
describe('the request log buffer under one tenant’s flood', () => {
  test("each organisation has a fair share: what is dropped is the flooder's, counted by organisation", async () => {
    // 40 entries held at most, none written until flushed (a batch of 256 is never reached).
    const server = await startServer({ REQUEST_LOG_BUFFER: '40', REQUEST_LOG_FLUSH_MS: '60000' });
    try {
      const flooder = await client(server, 'log-flooder');
      const victim = await client(server, 'log-victim');
      await send(flooder, 60);
      const victims = await send(victim, 5);
      await send(flooder, 10);
      const buffered = await series(server.url, 'plinth_request_log_buffered');
      assert.equal(buffered.get(''), 40, 'the buffer is full');
      const dropped = await series(server.url, 'plinth_request_log_dropped_total');
      assert.equal(dropped.get('{reason="buffer_full"}'), 35);
      await server.app.requestLog.flush();
      const kept = (await allEntries(victim, '&status=200&method=GET')).map((e) => e.id);
      assert.deepEqual(kept.slice(-5), [...victims].reverse(), 'every one of the victim’s entries was kept');
      const [flooderOrg, victimOrg] = [await orgOf(server, flooder), await orgOf(server, victim)];
      const byOrg = await series(server.url, 'plinth_request_log_dropped_by_org_total');
      assert.equal(byOrg.get(`{org="${flooderOrg}"}`), 35);
      assert.equal(byOrg.has(`{org="${victimOrg}"}`), false);
      assert.equal(byOrg.get('{org="other"}'), 0);
    } finally {
      await server.close();
    }
  });

  test(`drops by organisation name the ${DROPPED_TOP_ORGS} with the most, and sum the rest as other`, async () => {
    const server = await startServer({ REQUEST_LOG_BUFFER: '1', REQUEST_LOG_FLUSH_MS: '60000' });
    try {
      const holder = await client(server, 'log-holder');
      await send(holder, 1);
      // Twelve organisations, each with one entry dropped: it would be over its share beside the holder's.
      for (let i = 0; i < DROPPED_TOP_ORGS + 2; i++) await send(await client(server, `log-dropped-${i}`), 1);
      const byOrg = await series(server.url, 'plinth_request_log_dropped_by_org_total');
      assert.equal(byOrg.size, DROPPED_TOP_ORGS + 1, [...byOrg.keys()].join());
      assert.equal(byOrg.get('{org="other"}'), 2);
    } finally {
      await server.close();
    }
  });
});
