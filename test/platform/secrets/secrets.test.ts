import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { type Migration, sql } from 'kysely';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { ALL_MIGRATIONS } from '../../../src/modules.ts';
import { createSecretBox, keyIdOf } from '../../../src/platform/secrets/box.ts';
import { keyFileFor, secretBoxFor } from '../../../src/platform/secrets/key-source.ts';
import { BACKEND, freshDatabase, MULTI_PROCESS_SKIP, type TestDatabase } from '../../helpers/database.ts';
import { run, spawnServer } from '../../helpers/process.ts';
import { call, startServer } from '../../helpers/server.ts';

const EIN = '27-1234567';
const key32 = () => randomBytes(32);

describe('the secret box: AES-256-GCM, the key named in each value', () => {
  test('seals and opens; bound to its context; tampering and unknown keys are refused', () => {
    const box = createSecretBox(key32());
    const sealed = box.seal(EIN, 'accounts.kyb_ein');
    assert.match(sealed, new RegExp(`^enc:v1:${box.keyId}:`));
    assert.ok(!sealed.includes(EIN) && box.seal(EIN, 'accounts.kyb_ein') !== sealed, 'random IV each time');
    assert.equal(box.open(sealed, 'accounts.kyb_ein'), EIN);
    assert.throws(() => box.open(sealed, 'webhook_endpoints.secret'));
    assert.throws(() => box.open(`${sealed.slice(0, -2)}AA`, 'accounts.kyb_ein'));
    assert.throws(() => createSecretBox(key32()).open(sealed, 'accounts.kyb_ein'), /SECRETS_KEY/);
    assert.equal(box.open(EIN, 'accounts.kyb_ein'), EIN, 'plain text from before encryption reads as it is');
  });

  test('rotation: a box with the old key as previous opens old values and says they need resealing', () => {
    const [oldKey, newKey] = [key32(), key32()];
    const sealed = createSecretBox(oldKey).seal(EIN, 'c');
    const rotated = createSecretBox(newKey, [oldKey]);
    assert.equal(rotated.open(sealed, 'c'), EIN);
    assert.ok(rotated.needsResealing(sealed) && rotated.needsResealing(EIN));
    assert.ok(!rotated.needsResealing(rotated.seal(EIN, 'c')));
    assert.equal(rotated.keyId, keyIdOf(newKey));
  });

  test('PostgreSQL without SECRETS_KEY is a configuration error naming it; a bad key too', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/x' }),
      (e: Error) => {
        return e instanceof ConfigError && /^SECRETS_KEY: required with PostgreSQL/.test(e.message);
      },
    );
    assert.throws(() => loadConfig({ SECRETS_KEY: 'c2hvcnQ=' }), /SECRETS_KEY: must be 32 random bytes/);
  });
});

describe('the EIN at rest', { skip: false }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await freshDatabase();
  });
  after(() => db.drop());

  test('is stored sealed, never in plain text; only its last four come back', async () => {
    const server = await startServer();
    try {
      const key = await server.key('acme');
      const kyb = { ein: EIN, legal_name: 'Acme Corp' };
      const created = await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        json: { type: 'business', country: 'US', kyb },
      });
      assert.deepEqual(created.body.kyb, { legal_name: 'Acme Corp', ein_last4: '4567' });
      const stored = await sql<{ kyb_ein: string }>`select kyb_ein from accounts`.execute(server.database.db);
      assert.match(stored.rows[0]!.kyb_ein, /^enc:v1:[0-9a-f]{8}:/);
      assert.ok(!JSON.stringify(stored.rows).includes('1234567'));
    } finally {
      await server.close();
    }
  });

  test('SQLite without SECRETS_KEY: a key generated beside the database, mode 0600, reused', {
    skip: BACKEND !== 'sqlite',
  }, async () => {
    const settings = { DATABASE_URL: db.url, SECRETS_KEY: '', SECRETS_KEY_PREVIOUS: '' };
    const first = secretBoxFor(settings);
    const file = keyFileFor(db.url.slice('sqlite:'.length));
    assert.ok(existsSync(file));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(secretBoxFor(settings).keyId, first.keyId, 'the same key on the next start');
  });

  test('an empty or torn key file stops start-up, saying how to recover (issue 39, item 11)', {
    skip: BACKEND !== 'sqlite',
  }, async () => {
    // Before: a power cut seconds after the first start left the file of 0 bytes, and the restart said only "must be
    // 32 random bytes in base64", as if the operator had typed a bad SECRETS_KEY.
    const other = await freshDatabase();
    const file = keyFileFor(other.url.slice('sqlite:'.length));
    try {
      for (const [content, what] of [
        ['', /is empty/],
        ['c2hvcnQ=\n', /does not hold a key/],
      ] as const) {
        writeFileSync(file, content, { mode: 0o600 });
        const started = spawnServer({ DATABASE_URL: other.url, SECRETS_KEY: '', SECRETS_KEY_PREVIOUS: '' });
        const refusal = await started.then(
          async (server) => {
            server.child.kill('SIGTERM');
            await server.exited;
            return 'it started';
          },
          (error: Error) => error.message,
        );
        assert.match(refusal, what);
        assert.match(refusal, new RegExp(`${file}.*Restore it from your backup`, 's'));
        assert.match(refusal, /holds no secrets yet .*delete the file and start again/s);
        assert.equal(readFileSync(file, 'utf8'), content, 'the file is left for the operator to decide');
      }
    } finally {
      rmSync(file, { force: true });
      await other.drop();
    }
  });

  test('plain-text EINs of an old database keep working, and `cli secrets rotate` seals them, then rotates', async () => {
    const database = openDatabase(db.url);
    const env = { DATABASE_URL: db.url, SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') };
    try {
      // A database from before the EIN was sealed (and before the ledger, so accounts still hold their balance).
      const migrations = Object.entries<Migration>(Object.assign({}, ...ALL_MIGRATIONS));
      await database.migrate([Object.fromEntries(migrations.filter(([name]) => name < '2026-11-22T1000_ledger'))]);
      const now = new Date().toISOString();
      await database.write(async (trx) => {
        await sql`insert into orgs (id, name, created_at) values ('org_OLD', 'old', ${now})`.execute(trx);
        await sql`insert into accounts (id, org_id, mode, type, country, currency, available_balance, status,
          kyb_legal_name, kyb_ein, created_at) values ('acct_01M7Z25FCR5ZY0JCJ80M91V6XV', 'org_OLD', 'sandbox',
          'business', 'US', 'USD', 0, 'active', 'Old Corp', ${EIN}, ${now})`.execute(trx);
      });
      await database.migrate(ALL_MIGRATIONS);
    } finally {
      await database.close();
    }
    const key = JSON.parse(
      (await run(['src/cli/main.ts', 'keys', 'create', '--org', 'old', '--mode', 'sandbox', '--json'], env)).stdout,
    ).key;
    const withServer = async <T>(serverEnv: Record<string, string>, use: (url: string) => Promise<T>) => {
      const server = await spawnServer(serverEnv);
      try {
        return await use(server.url);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    };
    const read = (serverEnv: Record<string, string>) =>
      withServer(serverEnv, async (url) => {
        return (await call(url, 'GET', '/v1/fintech/accounts/acct_01M7Z25FCR5ZY0JCJ80M91V6XV', { key })).body;
      });
    assert.deepEqual((await read(env)).kyb, { legal_name: 'Old Corp', ein_last4: '4567' });
    // Fintech's other sealed columns, each with one value sealed under the first key: an account number, an external
    // account's number, a rule's number.
    const number = await withServer(env, async (url) => {
      const post = async (path: string, json: unknown) => {
        const reply = await call(url, 'POST', path, { key, json });
        assert.equal(reply.status, 200, reply.text);
        return reply.body;
      };
      const external = {
        routing_number: '021000021',
        account_number: '000123456789',
        account_holder_name: 'Acme Supplies LLC',
        account_type: 'checking',
      };
      await post('/v1/fintech/external_accounts', external);
      const rule = { match: { external_account_number: '000123456789' }, action: { return: 'R01', at: 'settlement' } };
      await post('/v1/sandbox/fintech/payment_rules', rule);
      return (await post('/v1/fintech/account_numbers', { account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV' }))
        .account_number as string;
    });
    const counts = (ein: number, others: number) => ({
      'accounts.kyb_ein': ein,
      'webhook_endpoints.secret': 0,
      'account_numbers.account_number': others,
      'external_accounts.account_number': others,
      'payment_rules.match_account_number': others,
      'audit_keys.private_key': others,
    });
    const sealed = await run(['src/cli/main.ts', 'secrets', 'rotate'], env);
    assert.equal(sealed.code, 0, sealed.stderr);
    // Before issue 41 the list held the EIN and webhook secrets only: this test named exactly those two columns.
    assert.deepEqual(JSON.parse(sealed.stdout), counts(1, 0));
    const next = { ...env, SECRETS_KEY: Buffer.alloc(32, 2).toString('base64'), SECRETS_KEY_PREVIOUS: env.SECRETS_KEY };
    assert.deepEqual(JSON.parse((await run(['src/cli/main.ts', 'secrets', 'rotate'], next)).stdout), counts(1, 1));
    assert.deepEqual(JSON.parse((await run(['src/cli/main.ts', 'secrets', 'rotate'], next)).stdout), counts(0, 0));
    // The re-sealed account number still opens under the new key alone: money sent to it finds it.
    const alone = { ...next, SECRETS_KEY_PREVIOUS: '' };
    await withServer(alone, async (url) => {
      const json = { account_number: number, amount: 100, rail: 'ach', direction: 'credit', originator_name: 'Globex' };
      const inbound = await call(url, 'POST', '/v1/sandbox/fintech/inbound_payments', { key, json });
      assert.equal(inbound.status, 200, inbound.text);
      assert.equal(inbound.body.status, 'settled');
    });
    const check = openDatabase(db.url);
    try {
      const row = (await sql<{ kyb_ein: string }>`select kyb_ein from accounts`.execute(check.db)).rows[0]!;
      assert.equal(createSecretBox(Buffer.alloc(32, 2)).open(row.kyb_ein, 'accounts.kyb_ein'), EIN);
    } finally {
      await check.close();
    }
  });
});

describe('a SECRETS_KEY that cannot open what the database holds stops start-up (issue 23, finding 6)', () => {
  const [A, B, C] = [1, 2, 3].map((n) => Buffer.alloc(32, 40 + n).toString('base64')) as [string, string, string];
  let db: TestDatabase;
  before(async () => {
    db = await freshDatabase();
  });
  after(() => db.drop());

  /** Starts `npm start`'s entry point; stops it again when it listened. The refusal's stderr, or null. */
  async function refusal(env: Record<string, string>): Promise<string | null> {
    try {
      const server = await spawnServer({ DATABASE_URL: db.url, SECRETS_KEY_PREVIOUS: '', ...env });
      server.child.kill('SIGTERM');
      await server.exited;
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  test('a wrong key: one line naming SECRETS_KEY, exit 2; the right one, or a rotation, starts', async () => {
    const first = await spawnServer({ DATABASE_URL: db.url, SECRETS_KEY: A });
    try {
      const signup = await call(first.url, 'POST', '/v1/sandbox/signup');
      const key = signup.body.api_key.key;
      const kyb = { ein: EIN, legal_name: 'Sealed Corp' };
      const created = await call(first.url, 'POST', '/v1/fintech/accounts', {
        key,
        json: { type: 'business', country: 'US', kyb },
      });
      assert.equal(created.status, 200, created.text);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    const refused = await refusal({ SECRETS_KEY: B });
    assert.ok(refused !== null, 'the server started with a key that opens nothing it holds');
    assert.match(refused, /^server exited 2 before listening: plinth: bad configuration: SECRETS_KEY: [^\n]+\n$/);
    assert.ok(!refused.includes(A) && !refused.includes(B), 'no key in the message');

    // A database from before the checks (none recorded yet) is judged by the sealed values it holds.
    const database = openDatabase(db.url);
    try {
      await database.write((trx) => trx.deleteFrom('secret_key_checks').execute());
    } finally {
      await database.close();
    }
    assert.match((await refusal({ SECRETS_KEY: B })) ?? '', /SECRETS_KEY: does not open/, 'judged by an EIN');
    assert.equal(await refusal({ SECRETS_KEY: A }), null, 'the right key starts');
    assert.equal(await refusal({ SECRETS_KEY: B, SECRETS_KEY_PREVIOUS: A }), null, 'a rotation starts');
    const rotate = await run(['src/cli/main.ts', 'secrets', 'rotate'], {
      DATABASE_URL: db.url,
      SECRETS_KEY: B,
      SECRETS_KEY_PREVIOUS: A,
    });
    assert.equal(rotate.code, 0, rotate.stderr);
    assert.equal(await refusal({ SECRETS_KEY: B }), null, 'after `secrets rotate`, the new key alone starts');
    const old = await refusal({ SECRETS_KEY: A });
    assert.match(old ?? '', /SECRETS_KEY:/, 'and the old key alone is refused from then on');
    const wrongRotation = await run(['src/cli/main.ts', 'secrets', 'rotate'], {
      DATABASE_URL: db.url,
      SECRETS_KEY: C,
      SECRETS_KEY_PREVIOUS: A,
    });
    assert.equal(wrongRotation.code, 2, 'rotating from a key that is not the one in use is refused too');
    assert.match(wrongRotation.stderr, /^plinth: bad configuration: SECRETS_KEY: /);
  });

  test('with WEB_CONCURRENCY, the supervisor refuses it before forking a worker', {
    skip: MULTI_PROCESS_SKIP,
  }, async () => {
    // The first test left this database sealed under B only.
    const refused = await refusal({ SECRETS_KEY: C, WEB_CONCURRENCY: '2' });
    assert.match(refused ?? '', /^server exited 2 before listening: plinth: bad configuration: SECRETS_KEY: [^\n]+\n$/);
  });
});
