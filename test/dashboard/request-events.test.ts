/**
 * A request's page in the dashboard lists the events it produced (docs/dashboard.md): each event keeps its request's
 * id in a column of its own (`request_id`), written with the event on either backend, and the page looks it up there.
 * The server's clock runs a day ahead of the request ids' (which the wall clock mints): the lookup must not depend on
 * the times inside the ids, and an event's body must not be searched for the id.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { get, signIn } from '../helpers/dashboard.ts';
import { call, useServer } from '../helpers/server.ts';

const DAY_MS = 86_400_000;

describe("a request's events", () => {
  const server = useServer({}, { clock: () => new Date(Date.now() + DAY_MS) });

  test('are stored with the request id, and listed on the request’s page', async () => {
    const key = await server.key('request-events');
    const created = await call(server.url, 'POST', '/v1/fintech/accounts', {
      key,
      json: { type: 'business', country: 'US' },
    });
    assert.equal(created.status, 200);
    const requestId = created.headers.get('request-id')!;
    assert.match(requestId, /^req_/);

    const rows = await server.database.db
      .selectFrom('events')
      .select(['id', 'type', 'request_id'])
      .where('request_id', '=', requestId)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.type),
      ['fintech.account.created'],
    );
    // An event of no request (the operator's key creation above) carries none.
    const operator = await server.database.db
      .selectFrom('events')
      .select('request_id')
      .where('type', '=', 'api_key.created')
      .execute();
    assert.ok(operator.length > 0 && operator.every((r) => r.request_id === null));

    // The request log records a moment after the answer.
    for (let i = 0; (await call(server.url, 'GET', `/v1/requests/${requestId}`, { key })).status !== 200; i++) {
      assert.ok(i < 200, 'the request log never recorded the request');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const cookie = await signIn(server.url, key);
    const page = await get(server.url, `/dashboard/requests/${requestId}`, cookie);
    assert.equal(page.status, 200);
    const produced = /<h2>Events it produced<\/h2>(.*?)<\/section>/s.exec(page.html)?.[1] ?? '';
    assert.match(produced, new RegExp(`href="/dashboard/events/${rows[0]!.id}"`));
    assert.match(produced, new RegExp(`/dashboard/accounts/${created.body.id}`));
  });
});
