import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { openSocket } from '../../helpers/raw-http.ts';
import { allEntries, entryOf } from '../../helpers/request-log.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const UNKNOWN = '/v1/fintech/accounts/acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

/** `ms` as RFC 3339 in the +05:30 offset, with milliseconds: the same instant written the long way. */
function inKolkata(ms: number): string {
  const local = new Date(ms + 330 * 60_000).toISOString(); // 2026-11-25T14:30:00.250Z
  return encodeURIComponent(`${local.slice(0, 23)}+05:30`);
}

describe('listing the request log', () => {
  const server = useServer();

  test('status, method and created filters combine, with cursors both ways', async () => {
    const api = await client(server, 'log-lists');
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await api.post('/v1/fintech/accounts', ACCOUNT));
    await sleep(5);
    const middle = Date.now();
    await sleep(5);
    const missing = [await api.get(UNKNOWN), await api.get(UNKNOWN)];
    const refused = await api.post('/v1/fintech/accounts', { type: 'personal', country: 'US' });
    const requestIds = [...made, ...missing, refused].map((r) => r.headers.get('request-id')!);
    await server.app.requestLog.flush(); // not entryOf: its polls would be 404s of their own

    const posts = await allEntries(api, '&method=POST');
    assert.deepEqual(ids(posts), [requestIds[5], requestIds[2], requestIds[1], requestIds[0]], 'newest first');
    assert.deepEqual(ids(await allEntries(api, '&status=404')), [requestIds[4], requestIds[3]]);
    assert.deepEqual(ids(await allEntries(api, '&status=200&method=POST')), requestIds.slice(0, 3).reverse());
    assert.deepEqual(ids(await allEntries(api, '&status=409')), []);

    const after = await allEntries(api, `&created[gte]=${inKolkata(middle)}&method=GET&status=404`);
    assert.deepEqual(ids(after), [requestIds[4], requestIds[3]]);
    const before = await allEntries(api, `&created%5Blt%5D=${inKolkata(middle)}`);
    assert.deepEqual(ids(before), requestIds.slice(0, 3).reverse(), 'brackets percent-encoded, too');
    assert.deepEqual(ids(await allEntries(api, '&method=POST&created[gt]=2000-01-01T00:00Z')), ids(posts));
    assert.deepEqual(ids(await allEntries(api, '&created[lte]=2000-01-01T00:00Z')), []);
    assert.deepEqual(ids(await allEntries(api, '&created[gte]=2999-12-31T23:59:59.999-00:00')), []);
    const first = await api.get('/v1/requests?method=POST&limit=3');
    assert.deepEqual([ids(first.body.data), first.body.has_more], [ids(posts).slice(0, 3), true]);
    const second = await api.get(`/v1/requests?method=POST&limit=3&starting_after=${requestIds[1]}`);
    assert.deepEqual([ids(second.body.data), second.body.has_more], [[requestIds[0]], false]);
    const back = await api.get(`/v1/requests?method=POST&limit=2&ending_before=${requestIds[0]}`);
    assert.deepEqual([ids(back.body.data), back.body.has_more], [[requestIds[2], requestIds[1]], true]);
    const both = `starting_after=${requestIds[0]}&ending_before=${requestIds[1]}`;
    assertProblem(await api.get(`/v1/requests?${both}`), 'parameter_invalid', 'ending_before');
  });

  test('a created filter that is not a time is 400 parameter_invalid, naming it', async () => {
    const api = await client(server, 'log-created-refused');
    const refused = [
      ['created[gte]', '2026-11-25'],
      ['created[gt]', '2026-11-25T09:00'],
      ['created[lte]', '2026-11-25T09:00:00'],
      ['created[lt]', '2026-11-25T09:00%2B01:00'],
      ['created[gte]', '2026-13-01T00:00Z'],
      ['created[gte]', '2026-11-25T09:00:00%2B24:00'],
      ['created[gte]', '1764061200'],
      ['created[gte]', 'yesterday'],
      ['created[gte]', ''],
    ];
    for (const [name, value] of refused)
      assertProblem(await api.get(`/v1/requests?${name}=${value}`), 'parameter_invalid', name);
    assert.equal((await api.get('/v1/requests?created[gte]=2028-02-29T00:00Z')).status, 200, 'a leap day is a day');
    assertProblem(await api.get('/v1/requests?created[eq]=2026-11-25T09:00Z'), 'parameter_unknown', 'created[eq]');
    assertProblem(await api.get('/v1/requests?status=4x'), 'parameter_invalid', 'status'); // 4xx is a class
    assertProblem(await api.get('/v1/requests?method=PATCH'), 'parameter_invalid', 'method');
  });

  test('an entry written after a page was read never lands behind its cursor: a slow request shows as newer', async () => {
    const api = await client(server, 'log-order');
    // The slow request arrives first (its id is the older one) and is answered last.
    const socket = await openSocket(server.url);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const body = JSON.stringify(ACCOUNT);
    socket.write(
      `POST /v1/fintech/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await sleep(100);
    const fast = await api.get('/v1/fintech/accounts');
    const fastId = fast.headers.get('request-id')!;
    await entryOf(api, fastId);
    const page = await api.get('/v1/requests?limit=100');
    assert.ok(ids(page.body.data).includes(fastId));
    socket.write(body.slice(5));
    for (let i = 0; i < 200 && !/\r\n\r\n\{/.test(answer); i++) await sleep(25);
    socket.destroy();
    const slowId = /request-id: (req_\w+)/i.exec(answer)![1]!;
    assert.ok(slowId < fastId, 'the slow request arrived first');
    await entryOf(api, slowId);
    const newer = await api.get(`/v1/requests?limit=100&ending_before=${page.body.data[0].id}`);
    assert.ok(ids(newer.body.data).includes(slowId), 'written after the page was read: listed as newer');
    assert.ok(!ids(await allEntries(api, `&starting_after=${fastId}`)).includes(slowId));
  });
});
