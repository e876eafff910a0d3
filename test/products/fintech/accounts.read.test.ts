import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const PATH = '/v1/fintech/accounts';

describe('retrieving and listing accounts', () => {
  const server = useServer();
  let key: string;
  const create = async (k = key): Promise<string> => {
    const reply = await call(server.url, 'POST', PATH, { key: k, json: { type: 'business', country: 'US' } });
    assert.equal(reply.status, 200, reply.text);
    return reply.body.id;
  };
  const list = (query: string, k = key) => call(server.url, 'GET', `${PATH}${query}`, { key: k });

  before(async () => {
    key = await server.key('acme');
  });

  test('retrieve returns the account as created', async () => {
    const created = await call(server.url, 'POST', PATH, {
      key,
      json: { type: 'business', country: 'GB', kyb: { ein: '12-3456789', legal_name: 'Acme Ltd' } },
    });
    const reply = await call(server.url, 'GET', `${PATH}/${created.body.id}`, { key });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, created.body);
  });

  test('a missing, malformed or foreign id is the same 404', async () => {
    const other = await server.key('globex');
    const live = await server.key('acme', 'live');
    const foreign = await create(other);
    const liveId = await create(live);
    const never = 'acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ';
    const bodiesOf = async (ids: string[]) => {
      const bodies: unknown[] = [];
      for (const id of ids) {
        const reply = await call(server.url, 'GET', `${PATH}/${id}`, { key });
        assertProblem(reply, 'resource_not_found');
        // Identical but for the request id and the id the caller sent, which the detail echoes when it has the
        // shape of an account id; anything else is not echoed (it may be a secret pasted in the wrong place).
        const { request_id: _, ...rest } = JSON.parse(reply.text.replaceAll(decodeURIComponent(id), 'ID'));
        bodies.push(rest);
      }
      for (const body of bodies) assert.deepEqual(body, bodies[0]);
      return bodies[0] as { detail: string };
    };
    assert.equal((await bodiesOf([never, foreign, liveId])).detail, 'No such account: ID');
    assert.equal((await bodiesOf(['nope', 'acct_%27%20or%201%3D1'])).detail, 'No such account with this id.');
    // The owners still see their own.
    assert.equal((await call(server.url, 'GET', `${PATH}/${foreign}`, { key: other })).status, 200);
    assert.equal((await call(server.url, 'GET', `${PATH}/${liveId}`, { key: live })).status, 200);
  });

  test('the detail of a 404 does not reveal whether the id exists elsewhere', async () => {
    const other = await server.key('initech');
    const foreign = await create(other);
    const a = await call(server.url, 'GET', `${PATH}/${foreign}`, { key });
    const b = await call(server.url, 'GET', `${PATH}/acct_01ZZZZZZZZZZZZZZZZZZZZZZZA`, { key });
    assert.equal(a.body.detail.replace(foreign, 'ID'), b.body.detail.replace('acct_01ZZZZZZZZZZZZZZZZZZZZZZZA', 'ID'));
  });

  test('lists are per org and per mode', async () => {
    const orgKey = await server.key('umbrella');
    const liveKey = await server.key('umbrella', 'live');
    const sandboxIds = [await create(orgKey), await create(orgKey)];
    const liveIds = [await create(liveKey)];
    const sandbox = await list('', orgKey);
    const live = await list('', liveKey);
    assert.deepEqual(
      sandbox.body.data.map((a: { id: string }) => a.id),
      sandboxIds.reverse(),
    );
    assert.deepEqual(
      live.body.data.map((a: { id: string }) => a.id),
      liveIds,
    );
    assert.equal(live.body.data[0].livemode, true);
    assert.equal(sandbox.body.data[0].livemode, false);
  });

  test('list shape, default limit of 10, newest first', async () => {
    const k = await server.key('hooli');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await create(k));
    const reply = await list('', k);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.object, 'list');
    assert.equal(reply.body.has_more, true);
    assert.deepEqual(
      reply.body.data.map((a: { id: string }) => a.id),
      ids.slice(2).reverse(),
    );
    assert.deepEqual(Object.keys(reply.body).sort(), ['data', 'has_more', 'object']);
  });

  test('pages walked with starting_after and back with ending_before never skip or repeat, while accounts are created', async () => {
    const k = await server.key('pied-piper');
    const existing: string[] = [];
    for (let i = 0; i < 23; i++) existing.push(await create(k));
    const seen: string[] = [];
    const createdDuring: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const reply = await list(`?limit=5${cursor}`, k);
      assert.equal(reply.status, 200, reply.text);
      seen.push(...reply.body.data.map((a: { id: string }) => a.id));
      createdDuring.push(await create(k)); // a new account lands between page requests
      pages++;
      if (!reply.body.has_more) break;
      cursor = `&starting_after=${reply.body.data.at(-1).id}`;
    }
    assert.equal(pages, 5);
    assert.deepEqual(seen, [...existing].reverse(), 'every account that existed, once, newest first');

    // Walk back towards newer accounts from the oldest: ending_before pages are still newest first.
    const back: string[][] = [];
    cursor = `&ending_before=${existing[0]}`;
    for (;;) {
      const reply = await list(`?limit=5${cursor}`, k);
      assert.equal(reply.status, 200, reply.text);
      const ids = reply.body.data.map((a: { id: string }) => a.id);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'each page is newest first');
      back.push(ids);
      if (!reply.body.has_more) break;
      cursor = `&ending_before=${ids[0]}`;
    }
    const all = [...existing, ...createdDuring];
    assert.deepEqual(back.reverse().flat(), all.slice(1).reverse());
  });

  test('has_more is false exactly at the end', async () => {
    const k = await server.key('vandelay');
    const ids = [await create(k), await create(k), await create(k)];
    const full = await list('?limit=3', k);
    assert.equal(full.body.has_more, false);
    const first = await list('?limit=2', k);
    assert.equal(first.body.has_more, true);
    const second = await list(`?limit=2&starting_after=${first.body.data[1].id}`, k);
    assert.deepEqual(
      second.body.data.map((a: { id: string }) => a.id),
      [ids[0]],
    );
    assert.equal(second.body.has_more, false);
    const newer = await list(`?limit=2&ending_before=${ids[0]}`, k);
    assert.deepEqual(
      newer.body.data.map((a: { id: string }) => a.id),
      [ids[2], ids[1]],
    );
    assert.equal(newer.body.has_more, false);
  });

  test('bad list parameters are 400s', async () => {
    const other = await server.key('someone-else');
    const foreign = await create(other);
    const mine = await create();
    assertProblem(await list('?limit=0'), 'parameter_invalid', 'limit');
    assertProblem(await list('?limit=101'), 'parameter_invalid', 'limit');
    assertProblem(await list('?limit=ten'), 'parameter_invalid', 'limit');
    assertProblem(await list('?limit=1.5'), 'parameter_invalid', 'limit');
    assertProblem(await list(`?starting_after=${mine}&ending_before=${mine}`), 'parameter_invalid', 'ending_before');
    assertProblem(await list(`?starting_after=${foreign}`), 'parameter_invalid', 'starting_after');
    assertProblem(await list('?ending_before=acct_nope'), 'parameter_invalid', 'ending_before');
    assertProblem(await list('?page=2'), 'parameter_unknown', 'page');
    assert.equal((await list('?limit=100')).status, 200);
    assert.equal((await list('?limit=1')).status, 200);
  });
});
