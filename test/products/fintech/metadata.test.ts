/**
 * Metadata and list filters (docs/api.md#metadata-your-own-references, docs/api.md#filters): set at create, changed only by the update operations (with their
 * `*.updated` events), found again with `metadata[key]=value` (answered from an index, shown with EXPLAIN), and
 * `created[…]` bounds on every list that takes them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const ACCOUNTS = '/v1/fintech/accounts';
const TRANSFERS = '/v1/fintech/transfers';
const ids = (list: { data: { id: string }[] }) => list.data.map((item) => item.id);

describe(`metadata (${BACKEND})`, () => {
  const server = useServer();
  const client = async (org: string) => {
    const key = await server.key(org);
    const post = (path: string, json?: unknown) => call(server.url, 'POST', path, { key, json });
    const get = (path: string) => call(server.url, 'GET', path, { key });
    return { key, post, get, m: money(server.url, key) };
  };

  test('set at create on accounts, transfers and endpoints; {} when none; a key given "" is not set', async () => {
    const { post, m } = await client('meta-create');
    const plain = await post(ACCOUNTS, { type: 'business', country: 'US' });
    assert.deepEqual(plain.body.metadata, {});
    const tagged = await post(ACCOUNTS, { type: 'business', country: 'US', metadata: { customer: 'c-1', gone: '' } });
    assert.deepEqual(tagged.body.metadata, { customer: 'c-1' });
    assert.deepEqual((await m.get(`${ACCOUNTS}/${tagged.body.id}`)).metadata, { customer: 'c-1' });
    await m.deposit(tagged.body.id, 100);
    const t = await post(TRANSFERS, {
      from_account_id: tagged.body.id,
      to_account_id: plain.body.id,
      amount: 10,
      currency: 'USD',
      metadata: { order: 'o-7' },
    });
    assert.deepEqual(t.body.metadata, { order: 'o-7' });
    const endpoint = await post('/v1/webhook_endpoints', {
      url: 'http://127.0.0.1:9/hook',
      enabled_events: ['*'],
      metadata: { team: 'payments' },
    });
    assert.equal(endpoint.status, 200, endpoint.text);
    assert.deepEqual(endpoint.body.metadata, { team: 'payments' });
  });

  test("Stripe's limits: 50 keys, keys of 1–40 characters without [ or ], values of at most 500, strings only", async () => {
    const { post } = await client('meta-limits');
    const create = (metadata: unknown) => post(ACCOUNTS, { type: 'business', country: 'US', metadata });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    assertProblem(await create(many), 'parameter_invalid', 'metadata');
    assertProblem(await create({ ['k'.repeat(41)]: 'v' }), 'parameter_invalid', 'metadata');
    assertProblem(await create({ 'a[b]': 'v' }), 'parameter_invalid', 'metadata');
    assertProblem(await create({ '': 'v' }), 'parameter_invalid', 'metadata');
    assertProblem(await create({ k: 'v'.repeat(501) }), 'parameter_invalid', 'metadata.k');
    assertProblem(await create({ k: 5 }), 'parameter_invalid', 'metadata.k');
    assertProblem(await create(['k']), 'parameter_invalid', 'metadata');
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]));
    assert.equal((await create(fifty)).status, 200, 'the limits themselves are allowed');
  });

  test('update sets keys, removes one given "", clears all with ""; one event per change; nothing else changes', async () => {
    const { post, m } = await client('meta-update');
    const a = (await post(ACCOUNTS, { type: 'business', country: 'US', metadata: { keep: '1', drop: '2' } })).body;
    const updated = await post(`${ACCOUNTS}/${a.id}`, { metadata: { drop: '', added: '3' } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.body.metadata, { keep: '1', added: '3' });
    assert.deepEqual({ ...updated.body, metadata: a.metadata }, a, 'only the metadata changed');
    const unchanged = await post(`${ACCOUNTS}/${a.id}`, { metadata: { keep: '1' } });
    assert.deepEqual(unchanged.body, updated.body);
    assert.deepEqual((await post(`${ACCOUNTS}/${a.id}`, { metadata: '' })).body.metadata, {});
    assertProblem(await post(`${ACCOUNTS}/${a.id}`, { metadata: {}, country: 'GB' }), 'parameter_unknown', 'country');
    // Without metadata too: a field the operation does not define is named first, before what is missing (issue 30).
    const stray = await post(`${ACCOUNTS}/${a.id}`, { country: 'GB' });
    assertProblem(stray, 'parameter_unknown', 'country');
    assert.equal(stray.body.errors[0].param, 'country', stray.text);
    assertProblem(await post(`${ACCOUNTS}/${a.id}`, { metadata: 'x' }), 'parameter_invalid', 'metadata');
    assertProblem(await post(`${ACCOUNTS}/acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ`, { metadata: {} }), 'resource_not_found');
    const events = await m.get('/v1/events?type=fintech.account.updated');
    assert.deepEqual(
      events.data.map((e: { data: { object: { metadata: unknown } } }) => e.data.object.metadata),
      [{}, { keep: '1', added: '3' }],
      'two changes, two events; the update that changed nothing emitted none',
    );
  });

  test("a closed account's metadata may change; a transfer's too, whatever its status, with its event", async () => {
    const { post, m } = await client('meta-closed');
    const a = (await post(ACCOUNTS, { type: 'business', country: 'US' })).body;
    const b = (await post(ACCOUNTS, { type: 'business', country: 'US' })).body;
    assert.equal((await post(`${ACCOUNTS}/${a.id}/close`, {})).body.status, 'closed');
    assert.deepEqual((await post(`${ACCOUNTS}/${a.id}`, { metadata: { archived: 'yes' } })).body.metadata, {
      archived: 'yes',
    });
    await m.deposit(b.id, 100);
    const t = await m.transfer(b.id, (await post(ACCOUNTS, { type: 'business', country: 'US' })).body.id, 5);
    const tagged = await post(`${TRANSFERS}/${t.id}`, { metadata: { invoice: 'i-9' } });
    assert.deepEqual({ ...tagged.body, metadata: {} }, t);
    assert.deepEqual(tagged.body.metadata, { invoice: 'i-9' });
    assertProblem(await post(`${TRANSFERS}/${t.id}`, { metadata: {}, amount: 1 }), 'parameter_unknown', 'amount');
    const events = await m.get('/v1/events?type=fintech.transfer.updated');
    assert.deepEqual(ids({ data: events.data.map((e: { data: { object: { id: string } } }) => e.data.object) }), [
      t.id,
    ]);
  });

  test('metadata[key]=value finds exactly the objects holding every pair; with cursors and other filters', async () => {
    const { post, get } = await client('meta-filter');
    const make = (metadata: Record<string, string>) =>
      post(ACCOUNTS, { type: 'business', country: 'US', metadata }).then((r) => r.body.id as string);
    const [x1, x2, y, both] = [
      await make({ tier: 'gold' }),
      await make({ tier: 'gold' }),
      await make({ tier: 'silver' }),
      await make({ tier: 'gold', region: 'eu' }),
    ];
    assert.deepEqual(ids((await get(`${ACCOUNTS}?metadata[tier]=gold`)).body), [both, x2, x1]);
    assert.deepEqual(ids((await get(`${ACCOUNTS}?metadata[tier]=gold&metadata[region]=eu`)).body), [both]);
    assert.deepEqual(ids((await get(`${ACCOUNTS}?metadata[tier]=silver`)).body), [y]);
    assert.deepEqual(ids((await get(`${ACCOUNTS}?metadata[tier]=GOLD`)).body), [], 'exact match');
    const page1 = (await get(`${ACCOUNTS}?metadata[tier]=gold&limit=2`)).body;
    assert.deepEqual(ids(page1), [both, x2]);
    assert.equal(page1.has_more, true);
    const page2 = (await get(`${ACCOUNTS}?metadata[tier]=gold&limit=2&starting_after=${x2}`)).body;
    assert.deepEqual([ids(page2), page2.has_more], [[x1], false]);
    await post(`${ACCOUNTS}/${x1}/freeze`, { reason: 'other' });
    assert.deepEqual(ids((await get(`${ACCOUNTS}?metadata[tier]=gold&status=frozen`)).body), [x1]);
    await post(`${ACCOUNTS}/${x2}`, { metadata: { tier: '' } });
    assert.deepEqual(ids((await get(`${ACCOUNTS}?metadata[tier]=gold`)).body), [both, x1], 'the index follows updates');
    assertProblem(
      await get(`${ACCOUNTS}?metadata[tier]=gold&metadata[tier]=silver`),
      'parameter_invalid',
      'metadata[tier]',
    );
    assertProblem(await get(`${ACCOUNTS}?metadata=gold`), 'parameter_invalid', 'metadata');
    assertProblem(await get(`${ACCOUNTS}?color[x]=1`), 'parameter_unknown', 'color');
  });

  test('transfers: metadata[key]=value, status, account_id together', async () => {
    const { post, get, m } = await client('meta-transfers');
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 1000);
    const send = (metadata: Record<string, string>, pending = false) =>
      post(TRANSFERS, { from_account_id: a, to_account_id: b, amount: 1, currency: 'USD', metadata, pending });
    const t1 = (await send({ batch: '1' })).body.id;
    const t2 = (await send({ batch: '1' }, true)).body.id;
    await send({ batch: '2' });
    assert.deepEqual(ids((await get(`${TRANSFERS}?metadata[batch]=1`)).body), [t2, t1]);
    assert.deepEqual(ids((await get(`${TRANSFERS}?metadata[batch]=1&status=pending`)).body), [t2]);
    assert.deepEqual(ids((await get(`${TRANSFERS}?metadata[batch]=1&account_id=${b}&status=posted`)).body), [t1]);
  });

  test("the filter is answered from the metadata index, not by reading the org's accounts (EXPLAIN)", async () => {
    const { post, key } = await client('meta-explain');
    await post(ACCOUNTS, { type: 'business', country: 'US', metadata: { n: '7' } });
    const db = server.database.db;
    const { org_id: org } = await db
      .selectFrom('api_keys')
      .select('org_id')
      .where('hint', 'like', `%${key.slice(-4)}`)
      .executeTakeFirstOrThrow();
    // An org with 20,000 accounts, each with metadata: what the planner must not read to answer the filter.
    const now = new Date().toISOString();
    const series =
      BACKEND === 'postgres'
        ? sql`select n from generate_series(1, 20000) as g(n)`
        : sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < 20000) select n from g`;
    await server.database.write(async (trx) => {
      await sql`insert into accounts (id, org_id, mode, type, country, currency, status, created_at)
        select 'acct_bulk' || n, ${org}, 'sandbox', 'business', 'US', 'USD', 'active', ${now} from (${series}) s`.execute(
        trx,
      );
      await sql`insert into metadata_entries (org_id, mode, kind, object_id, key, value, object_tx)
        select ${org}, 'sandbox', 'accounts', 'acct_bulk' || n, 'n', 'bulk' || n, 0 from (${series}) s`.execute(trx);
    });
    // The list's own query (accounts.repository and modules/metadata): newest first, in commit order on PostgreSQL.
    const order = BACKEND === 'postgres' ? sql`a.tx desc, a.id desc` : sql`a.id desc`;
    const query = sql`select a.id from accounts a where a.org_id = ${org} and a.mode = 'sandbox'
      and a.id in (select object_id from metadata_entries where org_id = ${org} and mode = 'sandbox'
        and kind = 'accounts' and key = 'n' and value = '7')
      order by ${order} limit 11`;
    await server.database.write((trx) => sql`analyze`.execute(trx));
    const plan =
      BACKEND === 'postgres'
        ? (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db)).rows.map((r) => r['QUERY PLAN'])
        : (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((r) => r.detail);
    const text = plan.join('\n');
    assert.match(text, /metadata_entries_lookup_idx/, text);
    // The accounts are reached by id from the index entries (SQLite: SEARCH … id=?), never walked.
    assert.doesNotMatch(text, /Seq Scan on accounts|Index Scan[^\n]*accounts_org_mode_tx_idx|SCAN a\b/, text);
    assert.equal((await sql<{ id: string }>`${query}`.execute(db)).rows.length, 1, 'and it finds the one account');
  });
});

describe(`created[…] filters (${BACKEND})`, () => {
  const server = useServer();

  test("gte, gt, lte and lt on accounts, transfers, transactions and events; the API's minute form names a whole minute", async () => {
    const key = await server.key('created-filters');
    const m = money(server.url, key);
    const get = (path: string) => call(server.url, 'GET', path, { key });
    const [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 100);
    const t = await m.transfer(a, b, 10);
    const minute = t.created_at as string; // YYYY-MM-DDTHH:MMZ
    const start = Date.parse(minute);
    const iso = (ms: number) => new Date(ms).toISOString();
    const next = iso(start + 60_000).slice(0, 16) + 'Z';
    for (const path of [ACCOUNTS, TRANSFERS, `${ACCOUNTS}/${a}/transactions`, '/v1/events']) {
      const all = ids((await get(path)).body);
      assert.ok(all.length > 0, path);
      const sep = path.includes('?') ? '&' : '?';
      const q = async (filter: string) => ids((await get(`${path}${sep}${filter}`)).body);
      assert.deepEqual(await q(`created[gte]=${minute}`), all, `${path} gte`);
      assert.deepEqual(await q(`created[lte]=${minute}`), all, `${path} lte (the whole minute)`);
      assert.deepEqual(await q(`created[lt]=${minute}`), [], `${path} lt`);
      assert.deepEqual(await q(`created[gt]=${minute}`), [], `${path} gt (after the whole minute)`);
      assert.deepEqual(await q(`created[gte]=${next}`), [], `${path} the next minute`);
      assert.deepEqual(
        await q(`created[gte]=${encodeURIComponent(iso(start - 3_600_000).replace('Z', '+00:00'))}`),
        all,
      );
      assert.deepEqual(await q(`created[gte]=${minute}&created[lt]=${next}&limit=1`), all.slice(0, 1));
    }
    // Days a month does not have (Date.parse would roll 2026-02-30 over into March), hour 24, and each field's range.
    const calendar = ['2026-02-29T00:00Z', '2026-02-30T00:00Z', '2026-04-31T00:00Z', '2026-11-24T24:00Z'];
    const ranges = ['2026-11-00T00:00Z', '2026-11-24T10:60Z', '2026-11-24T10:00:60Z', '2026-11-24T10:00:00+24:00'];
    for (const bad of [
      '2026-11-24',
      'yesterday',
      '2026-13-01T00:00Z',
      '1764000000',
      '2026-11-24T10:00',
      ...calendar,
      ...ranges,
    ])
      assertProblem(
        await get(`${ACCOUNTS}?created[gte]=${encodeURIComponent(bad)}`),
        'parameter_invalid',
        'created[gte]',
      );
    assert.equal((await get(`${ACCOUNTS}?created[lt]=2028-02-29T00:00Z`)).status, 200, 'a leap day is a day');
    assertProblem(await get(`${ACCOUNTS}?created[since]=${minute}`), 'parameter_unknown', 'created[since]');
  });
});
