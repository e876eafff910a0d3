import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../../src/db/open.ts';
import { ALL_MIGRATIONS } from '../../../src/modules.ts';
import { purgeExpired } from '../../../src/platform/idempotency/purge.ts';
import { BACKEND, freshDatabase, migrateBefore } from '../../helpers/database.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, type Reply, type TestServer, useServer } from '../../helpers/server.ts';

const PATH = '/v1/fintech/accounts';

/** Makes the database itself refuse inserts of accounts in `country`: a real failure inside the write. */
async function injectFault(server: TestServer, country: string): Promise<void> {
  await server.database.write(async (trx) => {
    if (BACKEND === 'sqlite') {
      await sql`create trigger fail_country before insert on accounts when new.country = ${sql.lit(country)}
        begin select raise(abort, 'injected fault'); end`.execute(trx);
      return;
    }
    await sql`create function fail_country() returns trigger language plpgsql as $$ begin
      if new.country = ${sql.lit(country)} then raise exception 'injected fault'; end if; return new; end $$`.execute(
      trx,
    );
    await sql`create trigger fail_country before insert on accounts for each row execute function fail_country()`.execute(
      trx,
    );
  });
}

async function removeFault(server: TestServer): Promise<void> {
  const on = BACKEND === 'postgres' ? ' on accounts' : '';
  await server.database.write((trx) => sql`drop trigger fail_country${sql.raw(on)}`.execute(trx));
}

const US = { type: 'business', country: 'US' };
const GB = { type: 'business', country: 'GB' };

describe('Idempotency-Key', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  const create = (idem: string, json: unknown = US, k = key) =>
    call(server.url, 'POST', PATH, { key: k, json, headers: { 'idempotency-key': idem } });
  const count = async (k = key) => (await call(server.url, 'GET', `${PATH}?limit=100`, { key: k })).body.data.length;

  test('a replay is the first response byte for byte, marked, with the original Request-Id', async () => {
    const idem = randomUUID();
    const before = await count();
    const first = await create(idem, { country: 'US', type: 'business' });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const second = await create(idem, { type: 'business', country: 'US' }); // same JSON, other key order
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.headers.get('request-id'), first.headers.get('request-id'));
    assert.equal(await count(), before + 1);
  });

  test('the same key with a different body, or on another operation, is 422 and creates nothing', async () => {
    const idem = randomUUID();
    await create(idem, US);
    const before = await count();
    assertProblem(await create(idem, GB), 'idempotency_key_reused', 'Idempotency-Key');
    assertProblem(
      await call(server.url, 'POST', '/v1/api_keys', { key, json: {}, headers: { 'idempotency-key': idem } }),
      'idempotency_key_reused',
    );
    assert.equal(await count(), before);
  });

  test('40 concurrent requests with one key create exactly one account; every other answer is a replay or a 409', async () => {
    const k = await server.key('concurrency');
    const idem = randomUUID();
    const replies = await Promise.all(Array.from({ length: 40 }, () => create(idem, US, k)));
    const ok = replies.filter((r) => r.status === 200);
    assert.ok(ok.length >= 1);
    for (const r of ok) assert.equal(r.text, ok[0]!.text);
    assert.equal(ok.filter((r) => r.headers.get('idempotent-replayed') !== 'true').length, 1, 'one original');
    for (const r of replies.filter((x) => x.status !== 200))
      assertProblem(r, 'idempotency_request_in_progress', 'Idempotency-Key');
    assert.equal(await count(k), 1);
  });

  test('a key used by another org, or by the other mode, is independent', async () => {
    const idem = randomUUID();
    const mine = await create(idem, US);
    const other = await create(idem, US, await server.key('globex'));
    const live = await create(idem, US, await server.key('acme', 'live'));
    assert.equal(other.status, 200);
    assert.equal(live.status, 200);
    assert.equal(other.headers.get('idempotent-replayed'), null);
    assert.equal(live.headers.get('idempotent-replayed'), null);
    assert.equal(new Set([mine.body.id, other.body.id, live.body.id]).size, 3);
    assert.equal(live.body.livemode, true);
  });

  test('a request refused by validation, before or after the claim, leaves the key usable', async () => {
    const idem = randomUUID();
    assertProblem(await create(idem, { type: 'business' }), 'parameter_missing', 'country');
    assertProblem(await create(idem, { type: 'business', country: 'ZZ' }), 'parameter_invalid', 'country');
    assertProblem(await create(idem, { type: 'business', country: 'BR' }), 'country_unsupported', 'country');
    const ok = await create(idem, US);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('idempotent-replayed'), null);
  });

  test('a 5xx is not stored: the key works once the fault is gone', async () => {
    const idem = randomUUID();
    await injectFault(server, 'GB');
    try {
      const failed = await create(idem, GB);
      assertProblem(failed, 'internal_error');
      assert.doesNotMatch(failed.text, /injected fault/);
    } finally {
      await removeFault(server);
    }
    const ok = await create(idem, GB);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('idempotent-replayed'), null);
  });

  const keyIdOf = async (k: string) =>
    (
      await server.database.db
        .selectFrom('api_keys')
        .select('id')
        .where('hint', '=', `sk_test_…${k.slice(-4)}`)
        .executeTakeFirstOrThrow()
    ).id;

  test('a key whose first request is still running anywhere is 409 until that request ends', {
    skip:
      BACKEND === 'sqlite' && "SQLite's single writer runs one write at a time: a same-key retry waits, then replays",
  }, async () => {
    // Another process's request in mid-flight: a transaction holding the scope's lock, as withIdempotency takes it.
    const idem = randomUUID();
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `idempotency\n${await keyIdOf(key)}\n${idem}`,
      ]);
      const inProgress = await create(idem, US);
      assertProblem(inProgress, 'idempotency_request_in_progress', 'Idempotency-Key');
      assert.equal(inProgress.headers.get('retry-after'), '1');
      await other.query('rollback'); // it died, or failed: nothing of it stays, and the key is free
    } finally {
      await other.end();
    }
    const ok = await create(idem, US);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('idempotent-replayed'), null);
  });

  test('a refusal decided by running the request is its outcome: a retry replays it, even once it would pass', async () => {
    const a = (await call(server.url, 'POST', PATH, { key, json: US })).body.id;
    const b = (await call(server.url, 'POST', PATH, { key, json: US })).body.id;
    const transfer = { from_account_id: a, to_account_id: b, amount: 500, currency: 'USD' };
    const idem = randomUUID();
    const send = () =>
      call(server.url, 'POST', '/v1/fintech/transfers', { key, json: transfer, headers: { 'idempotency-key': idem } });
    const refused = await send();
    assertProblem(refused, 'insufficient_funds', 'from_account_id');
    const deposit = { amount: 1000 };
    assert.equal(
      (await call(server.url, 'POST', `/v1/sandbox/fintech/accounts/${a}/deposits`, { key, json: deposit })).status,
      200,
    );
    const retried = await send();
    assert.equal(retried.status, 409);
    assert.equal(retried.text, refused.text);
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    assert.equal(retried.headers.get('content-type'), refused.headers.get('content-type'));
    assert.equal(retried.headers.get('request-id'), refused.headers.get('request-id'));
    const moved = await call(server.url, 'GET', `/v1/fintech/accounts/${b}`, { key });
    assert.equal(moved.body.available_balance.amount, 0, 'the replayed refusal moved nothing');
  });

  test('the header must be 1–255 visible ASCII characters', async () => {
    for (const bad of ['x'.repeat(256), 'has space', 'tab\tinside', 'caf\u00e9']) {
      assertProblem(await create(bad, US), 'parameter_invalid', 'Idempotency-Key');
    }
    assert.equal((await create('x'.repeat(255), US)).status, 200);
    assert.equal((await create('!', US)).status, 200);
  });

  test('the sign-up takes no Idempotency-Key: without an owner, a replay could hand its secret to anyone', async () => {
    assertProblem(
      await call(server.url, 'POST', '/v1/sandbox/signup', { headers: { 'idempotency-key': 'k' } }),
      'parameter_unknown',
      'Idempotency-Key',
    );
  });

  test('creating an API key replays too, but never its secret: the replay says `key: null`', async () => {
    const idem = randomUUID();
    const first = await call(server.url, 'POST', '/v1/api_keys', { key, headers: { 'idempotency-key': idem } });
    const again = await call(server.url, 'POST', '/v1/api_keys', { key, headers: { 'idempotency-key': idem } });
    assert.equal(first.status, 200);
    assert.match(first.body.key, /^sk_test_[0-9A-Za-z]{38}$/);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, { ...first.body, key: null });
    const stored = await server.database.db.selectFrom('idempotency_keys').select('response_body').execute();
    for (const row of stored) assert.doesNotMatch(String(row.response_body), /sk_(test|live)_[0-9A-Za-z]{38}/);
  });

  test('the purge removes only keys past their time to live', async () => {
    const expired = randomUUID();
    const fresh = randomUUID();
    await create(expired, US);
    await create(fresh, US);
    await server.database.write((trx) =>
      trx
        .updateTable('idempotency_keys')
        .set({ created_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
        .where('key', '=', expired)
        .execute(),
    );
    const purged = await purgeExpired(server.database, () => new Date(), 24 * 3_600_000, 2);
    assert.ok(purged >= 1);
    const left = await server.database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', [expired, fresh])
      .execute();
    assert.deepEqual(
      left.map((r) => r.key),
      [fresh],
    );
    assert.equal((await create(fresh, US)).headers.get('idempotent-replayed'), 'true');
    const reused = await create(expired, GB);
    assert.equal(reused.status, 200, 'an expired key is free again');
    assert.equal(reused.headers.get('idempotent-replayed'), null);
  });

  test('property: any interleaving of creates over a few keys and bodies leaves one account per key that succeeded', async () => {
    const bodies = [US, GB, { type: 'business', country: 'ZZ' }];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), body: fc.nat(2) }), { minLength: 1, maxLength: 6 }),
          { minLength: 1, maxLength: 5 },
        ),
        async (batches) => {
          const k = await server.key(`property-${run++}`);
          const answers = new Map<string, Array<{ body: number; reply: Reply }>>();
          for (const batch of batches) {
            const replies = await Promise.all(batch.map((c) => create(`${run}-${c.key}`, bodies[c.body], k)));
            for (const [i, c] of batch.entries()) {
              answers.set(c.key, [...(answers.get(c.key) ?? []), { body: c.body, reply: replies[i]! }]);
            }
          }
          let succeeded = 0;
          for (const list of answers.values()) {
            const originals = list.filter(
              (a) => a.reply.status === 200 && a.reply.headers.get('idempotent-replayed') !== 'true',
            );
            if (originals.length > 1) return false;
            const first = originals[0];
            if (first) succeeded++;
            for (const { body, reply } of list) {
              if (reply.status === 200) {
                if (reply.text !== first!.reply.text || body !== first!.body) return false;
              } else if (reply.status === 422) {
                if (reply.body.code !== 'idempotency_key_reused') return false;
              } else if (reply.status === 409) {
                if (reply.body.code !== 'idempotency_request_in_progress') return false;
              } else if (reply.status === 400) {
                if (body !== 2) return false; // only the invalid body is refused
              } else return false;
            }
          }
          return (await count(k)) === succeeded;
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe(`the scope of an Idempotency-Key is the API key that sent it (${BACKEND})`, () => {
  const server = useServer();
  const post = (key: string, path: string, json: unknown, idem: string) =>
    call(server.url, 'POST', path, { key, json, headers: { 'idempotency-key': idem } });
  const isOriginal = (reply: Reply) => assert.equal(reply.headers.get('idempotent-replayed'), null, reply.text);

  /** A full key of a new org, and a key of the same org restricted to `api_keys: write`. */
  async function twoKeys(org: string): Promise<{ full: string; restricted: string }> {
    const full = await server.key(org);
    const made = await call(server.url, 'POST', '/v1/api_keys', {
      key: full,
      json: { permissions: { api_keys: 'write' } },
    });
    assert.equal(made.status, 200, made.text);
    return { full, restricted: made.body.key };
  }

  test('a restricted key and a full key of one org sending the same value each get their own answer, in both orders', async () => {
    // Before, the scope was the org and mode: the first answer stored under `order-4711` was replayed to the other key
    // (the restricted key's 403 to the full key, the full key's 200 to the restricted key).
    const { full, restricted } = await twoKeys('scope-keys');
    const refused = await post(restricted, '/v1/api_keys', {}, 'order-4711');
    assertProblem(refused, 'permission_denied', 'permissions');
    const made = await post(full, '/v1/api_keys', {}, 'order-4711');
    assert.equal(made.status, 200, made.text);
    isOriginal(made);
    assert.match(made.body.key, /^sk_test_/);

    const first = await post(full, '/v1/api_keys', {}, 'order-4712');
    assert.equal(first.status, 200, first.text);
    const other = await post(restricted, '/v1/api_keys', {}, 'order-4712');
    assertProblem(other, 'permission_denied', 'permissions');
    isOriginal(other);
    assert.notEqual(other.headers.get('request-id'), first.headers.get('request-id'));
    assert.ok(!other.text.includes(first.body.id), 'the restricted key learns nothing of the full key’s answer');
  });

  test('another key of the same org neither replays nor refuses what one key stored under the same value', async () => {
    const org = 'scope-accounts';
    const [a, b] = [await server.key(org), await server.key(org)];
    const idem = randomUUID();
    const us = await post(a, PATH, US, idem);
    assert.equal(us.status, 200, us.text);
    // A different body under the same value: 422 for the same key, its own request for another key.
    assertProblem(await post(a, PATH, GB, idem), 'idempotency_key_reused', 'Idempotency-Key');
    const gb = await post(b, PATH, GB, idem);
    assert.equal(gb.status, 200, gb.text);
    isOriginal(gb);
    assert.equal(gb.body.country, 'GB');
    const usAgain = await post(b, PATH, US, randomUUID());
    assert.notEqual(usAgain.body.id, us.body.id);
    // Each key's retry is its own answer.
    assert.equal((await post(a, PATH, US, idem)).text, us.text);
    const gbAgain = await post(b, PATH, GB, idem);
    assert.equal(gbAgain.text, gb.text);
    assert.equal(gbAgain.headers.get('idempotent-replayed'), 'true');
  });

  test('a refusal by permission is not stored: the key stays unused', async () => {
    // Before, the 403 was stored as the request's outcome: replayed, and a corrected request under the same value
    // was refused as a reuse (422 idempotency_key_reused).
    const { restricted } = await twoKeys('scope-permission');
    const idem = randomUUID();
    const refused = await post(restricted, '/v1/api_keys', {}, idem);
    assertProblem(refused, 'permission_denied', 'permissions');
    const again = await post(restricted, '/v1/api_keys', {}, idem);
    assertProblem(again, 'permission_denied', 'permissions');
    isOriginal(again);
    assert.notEqual(again.headers.get('request-id'), refused.headers.get('request-id'));
    const narrower = await post(restricted, '/v1/api_keys', { permissions: { api_keys: 'read' } }, idem);
    assert.equal(narrower.status, 200, narrower.text);
    isOriginal(narrower);
    const stored = await server.database.db
      .selectFrom('idempotency_keys')
      .select('response_status')
      .where('key', '=', idem)
      .execute();
    assert.deepEqual(
      stored.map((row) => row.response_status),
      [200],
    );
  });
});

const SCOPED = '2026-11-28T0200_idempotency_scope_api_key';

describe(`upgrading idempotency records to responses only (${BACKEND})`, () => {
  test('the migration deletes claim rows left by earlier versions (no response) and keeps stored responses', async () => {
    const fresh = await freshDatabase();
    const database = openDatabase(fresh.url);
    try {
      await migrateBefore(database, '2026-11-24T1200_idempotency_without_claims');
      const now = new Date().toISOString();
      await database.write(async (trx) => {
        await sql`insert into orgs (id, name, created_at) values ('org_IDEM', 'idem', ${now})`.execute(trx);
        await sql`insert into idempotency_keys (org_id, mode, key, fingerprint, request_id, locked_at,
            response_status, response_body, created_at)
          values ('org_IDEM', 'sandbox', 'claim-left', 'x', 'req_gone', ${now}, null, null, ${now}),
                 ('org_IDEM', 'sandbox', 'answered', 'y', 'req_done', ${now}, 200, '{}', ${now})`.execute(trx);
      });
      await migrateBefore(database, SCOPED);
      const rows = (await database.db.selectFrom('idempotency_keys').selectAll().execute()).map((row) => ({ ...row }));
      assert.deepEqual(rows, [
        {
          org_id: 'org_IDEM',
          mode: 'sandbox',
          key: 'answered',
          fingerprint: 'y',
          request_id: 'req_done',
          response_status: 200,
          response_body: '{}',
          created_at: now,
        },
      ]);
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});

describe(`upgrading idempotency records to one scope per API key (${BACKEND})`, () => {
  test('a stored response takes the key its request log entry names; one without an entry is deleted', async () => {
    const fresh = await freshDatabase();
    const database = openDatabase(fresh.url);
    try {
      await migrateBefore(database, SCOPED);
      const now = new Date().toISOString();
      await database.write(async (trx) => {
        await sql`insert into orgs (id, name, created_at) values ('org_SCOPE', 'scope', ${now})`.execute(trx);
        await sql`insert into idempotency_keys (org_id, mode, key, fingerprint, request_id, response_status,
            response_body, created_at)
          values ('org_SCOPE', 'sandbox', 'logged', 'x', 'req_LOGGED', 200, '{}', ${now}),
                 ('org_SCOPE', 'sandbox', 'unlogged', 'y', 'req_UNLOGGED', 200, '{}', ${now})`.execute(trx);
        await sql`insert into request_logs (id, org_id, mode, method, route, path, status, duration_us, api_key_id,
            api_key_hint, replayed, source, body_truncated, created_at)
          values ('req_LOGGED', 'org_SCOPE', 'sandbox', 'POST', '/v1/fintech/accounts', '/v1/fintech/accounts', 200,
            1, 'key_SENDER', 'sk_test_…abcd', 0, 'api', 0, ${now})`.execute(trx);
      });
      await database.migrate(ALL_MIGRATIONS);
      const rows = await database.db.selectFrom('idempotency_keys').select(['api_key_id', 'key']).execute();
      assert.deepEqual(
        rows.map((row) => ({ ...row })),
        [{ api_key_id: 'key_SENDER', key: 'logged' }],
      );
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});
