/**
 * The chain's own defences and the checkpoint key's life (docs/api.md#verifying-the-history), on a real server:
 * the chain's rows are append-only (the database refuses an update or a delete, PostgreSQL a truncate too); they stay
 * when event bodies expire, and `audit verify` still passes, counting the expired; `audit rotate-key` retires the
 * key, which GET /v1/audit/public_key then lists, and a checkpoint it signed still verifies; a checkpoint whose
 * signature is bad, signed by an unknown key, or of another org or mode is refused; the migration that made the chain
 * gives every event numbered before it its row, and verify accepts those bodies (which name no previous hash).
 */
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../../src/db/open.ts';
import { AUDIT_KEY_COLUMN, signingKeys } from '../../../src/modules/audit/keys.ts';
import { openCheckpoint, publicKeyOf, signCheckpoint, signingKey } from '../../../src/modules/audit/note.ts';
import { purgeEvents } from '../../../src/modules/events/purge.ts';
import { deleteDeliveriesOf } from '../../../src/modules/webhooks/api/deliveries.repository.ts';
import { ALL_MIGRATIONS } from '../../../src/modules.ts';
import { newId } from '../../../src/platform/kit/ids.ts';
import { apiTime } from '../../../src/platform/kit/time.ts';
import { genesisHash } from '../../../src/platform/outbox/chain.ts';
import { SEQUENCER_TURN } from '../../../src/platform/outbox/sequencer.ts';
import { createSecretBox } from '../../../src/platform/secrets/box.ts';
import { contextOf } from '../../../src/platform/secrets/rotate.ts';
import { BACKEND, freshDatabase, migrateBefore } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { run, spawnServer } from '../../helpers/process.ts';
import { call, type TestServer, UNLIMITED, useServer } from '../../helpers/server.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'audit-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `cli` on the server's database; stdout and stderr as one text. */
async function cli(server: { databaseUrl: string }, args: string[]) {
  const result = await run(['src/cli/main.ts', ...args], { DATABASE_URL: server.databaseUrl });
  return { code: result.code, out: `${result.stdout}${result.stderr}` };
}

async function get(server: TestServer, key: string, path: string) {
  const reply = await call(server.url, 'GET', path, { key });
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}

/** A file holding `text`, for --checkpoint. */
let files = 0;
function saved(text: string): string {
  const path = join(dir, `checkpoint-${++files}`);
  writeFileSync(path, text);
  return path;
}

/** Two accounts, a deposit and a transfer: events, some of them ledger transactions. */
async function someWrites(server: TestServer, key: string): Promise<void> {
  const m = money(server.url, key);
  const a = await m.account();
  const b = await m.account();
  await m.deposit(a, 1_000);
  await m.transfer(a, b, 400);
}

describe(`the chain's rows and the checkpoint key (${BACKEND})`, () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('audit-org');
    await someWrites(server, key);
  });
  const verify = (org: string, ...more: string[]) =>
    cli(server, ['audit', 'verify', '--org', org, '--mode', 'sandbox', ...more]);

  test('the chain is append-only: an update or a delete is refused by the database (PostgreSQL: a truncate too)', async () => {
    const refused = (statement: ReturnType<typeof sql>) =>
      assert.rejects(
        server.database.write((trx) => statement.execute(trx)),
        /event_chain is append-only/,
      );
    await refused(sql`update event_chain set hash = ${'0'.repeat(64)}`);
    await refused(sql`update event_chain set sequence = sequence + 1000`);
    await refused(sql`delete from event_chain`);
    if (BACKEND === 'postgres') await refused(sql`truncate event_chain`);
    const chain = await get(server, key, '/v1/audit/chain');
    assert.ok(chain.data.length >= 6);
    assert.equal(chain.data[0].sequence, 1);
    const { code, out } = await verify('audit-org');
    assert.equal(code, 0, out);
  });

  test('--org takes a sign-up’s display name too, as its help says; several orgs of that name are named, not guessed', async () => {
    const signup = await call(server.url, 'POST', '/v1/sandbox/signup', { json: { name: 'Audit Signup Ltd' } });
    assert.equal(signup.status, 200, signup.text);
    await someWrites(server, signup.body.api_key.key);
    const { code, out } = await verify('Audit Signup Ltd', '--json');
    assert.equal(code, 0, out);
    assert.equal(JSON.parse(out).origin, `plinth/${signup.body.org_id}/sandbox`);

    const twin = await call(server.url, 'POST', '/v1/sandbox/signup', { json: { name: 'Audit Signup Ltd' } });
    assert.equal(twin.status, 200, twin.text);
    const several = await verify('Audit Signup Ltd');
    assert.equal(several.code, 1, several.out);
    assert.match(several.out, /several orgs signed up as "Audit Signup Ltd"/);
    assert.ok(several.out.includes(signup.body.org_id) && several.out.includes(twin.body.org_id), several.out);
    const none = await verify('Nobody Inc');
    assert.equal(none.code, 1, none.out);
    assert.match(none.out, /no org "Nobody Inc"/);
  });

  test('rotate-key retires the key (listed in retired_keys); a checkpoint it signed still verifies', async () => {
    const was = await get(server, key, '/v1/audit/public_key');
    assert.deepEqual(was.retired_keys, []);
    const old = await get(server, key, '/v1/audit/checkpoint');
    const asJson = saved(JSON.stringify(old));
    const asNote = saved(old.note);

    const rotated = await cli(server, ['audit', 'rotate-key']);
    assert.equal(rotated.code, 0, rotated.out);
    const made = JSON.parse(rotated.out);
    assert.notEqual(made.public_key, was.public_key);

    const now = await get(server, key, '/v1/audit/public_key');
    assert.equal(now.public_key, made.public_key);
    assert.notEqual(now.key_id, was.key_id);
    assert.equal(now.retired_at, null);
    assert.equal(now.retired_keys.length, 1);
    const [retired] = now.retired_keys;
    assert.equal(retired.key_id, was.key_id);
    assert.equal(retired.public_key, was.public_key);
    assert.equal(retired.verifier_key, was.verifier_key);
    assert.equal(retired.created_at, was.created_at);
    assert.ok(retired.retired_at !== null, 'the retired key says when');

    await someWrites(server, key);
    for (const file of [asJson, asNote]) {
      const { code, out } = await verify('audit-org', '--checkpoint', file);
      assert.equal(code, 0, out);
      assert.match(out, new RegExp(`^ok: .*extends the checkpoint at ${old.size}\\n$`));
    }
    // What the new key signs verifies too; its signature line names the new key.
    const fresh = await get(server, key, '/v1/audit/checkpoint');
    assert.ok(fresh.size > old.size);
    const signature = Buffer.from(/\n\u2014 plinth (\S+)\n$/.exec(fresh.note)![1]!, 'base64');
    assert.equal(signature.subarray(0, 4).toString('hex'), now.key_id);
    const { code, out } = await verify('audit-org', '--checkpoint', saved(JSON.stringify(fresh)));
    assert.equal(code, 0, out);
  });

  test('a checkpoint with a bad signature, by an unknown key, or of another org or mode is refused', async () => {
    const checkpoint = await get(server, key, '/v1/audit/checkpoint');
    const [text, line] = checkpoint.note.split('\n\n');
    const signed = Buffer.from(line.slice('\u2014 plinth '.length).trim(), 'base64');
    signed[10] = signed[10]! ^ 1; // a bit of the signature (after the 4-byte key id)
    const bad = await verify(
      'audit-org',
      '--checkpoint',
      saved(`${text}\n\n\u2014 plinth ${signed.toString('base64')}\n`),
    );
    assert.equal(bad.code, 1, bad.out);
    assert.match(bad.out, /the signature by plinth does not verify/);
    // The text changed under a good signature (a longer chain claimed): the same refusal.
    const longer = checkpoint.note.replace(`\n${checkpoint.size}\n`, `\n${checkpoint.size + 1}\n`);
    const claimed = await verify('audit-org', '--checkpoint', saved(longer));
    assert.equal(claimed.code, 1, claimed.out);
    assert.match(claimed.out, /the signature by plinth does not verify/);

    // A well-formed note of this chain signed by another key of the same name: not a known key.
    const { privateKey } = generateKeyPairSync('ed25519');
    const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    const forged = signCheckpoint(checkpoint, signingKey('plinth', publicKeyOf(der).toString('base64'), der));
    const unknown = await verify('audit-org', '--checkpoint', saved(forged));
    assert.equal(unknown.code, 1, unknown.out);
    assert.match(unknown.out, /no signature by a known checkpoint key/);

    // A good checkpoint of another org, and of this org's live chain: not of this chain.
    const otherKey = await server.key('audit-other');
    await someWrites(server, otherKey);
    const other = await get(server, otherKey, '/v1/audit/checkpoint');
    const foreign = await verify('audit-org', '--checkpoint', saved(JSON.stringify(other)));
    assert.equal(foreign.code, 1, foreign.out);
    assert.match(
      foreign.out,
      new RegExp(
        `^FAILED: ${checkpoint.origin}: checkpoint: the checkpoint is of ${other.origin}, not ${checkpoint.origin}`,
      ),
    );
    const live = await cli(server, [
      'audit',
      'verify',
      '--org',
      'audit-org',
      '--mode',
      'live',
      '--checkpoint',
      saved(checkpoint.note),
    ]);
    assert.equal(live.code, 1, live.out);
    assert.match(
      live.out,
      new RegExp(`checkpoint: the checkpoint is of ${checkpoint.origin}, not plinth/org_\\w+/live`),
    );
  });
});

describe(`verify while writes go on (${BACKEND})`, () => {
  const server = useServer();

  test('a transaction whose event is committed but not yet numbered is not called unreported', {
    skip: BACKEND === 'postgres' ? false : 'SQLite numbers each event in the write that commits it',
  }, async () => {
    const key = await server.key('unnumbered-org');
    await someWrites(server, key);
    const m = money(server.url, key);
    const account = await m.account();
    // The sequencer's turn held by the test, as a pass under way holds it: the deposit commits, its event unnumbered.
    const pass = new pg.Client({ connectionString: server.databaseUrl });
    await pass.connect();
    try {
      await pass.query('begin');
      await pass.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [SEQUENCER_TURN]);
      await m.deposit(account, 700);
      const { rows } = await pass.query(
        "select count(*)::int as n from events where sequence is null and type = 'fintech.transaction.created'",
      );
      assert.equal(rows[0].n, 1, 'the deposit committed with its event unnumbered');
      const during = await cli(server, ['audit', 'verify', '--org', 'unnumbered-org', '--mode', 'sandbox']);
      assert.equal(during.code, 0, during.out);
    } finally {
      await pass.query('rollback');
      await pass.end();
    }
    const numbered = await get(server, key, '/v1/audit/checkpoint'); // waits for the pass
    const after = await cli(server, ['audit', 'verify', '--org', 'unnumbered-org', '--mode', 'sandbox', '--json']);
    assert.equal(after.code, 0, after.out);
    assert.equal(JSON.parse(after.out).size, numbered.size);
  });
});

describe(`a transaction that lost its event (${BACKEND})`, () => {
  const server = useServer();

  test('is still named: no later event reports it', async () => {
    const key = await server.key('lost-org');
    await someWrites(server, key);
    const m = money(server.url, key);
    const deposit = await m.deposit(await m.account(), 900);
    await someWrites(server, key);
    await get(server, key, '/v1/audit/checkpoint'); // every event numbered
    const event = await server.database.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'fintech.transaction.created')
      .where('body', 'like', `%"id":"${deposit.id}"%`)
      .executeTakeFirstOrThrow();
    await server.database.write((trx) => trx.deleteFrom('events').where('id', '=', event.id).execute());
    const { code, out } = await cli(server, ['audit', 'verify', '--org', 'lost-org', '--mode', 'sandbox']);
    assert.equal(code, 1, out);
    assert.match(
      out,
      new RegExp(`ledger_entries: ${deposit.id} was made at or after the oldest kept event, yet no event reports it`),
    );
  });
});

describe(`the chain when event bodies expire (EVENT_RETENTION_DAYS, ${BACKEND})`, () => {
  const server = useServer();

  test('purged events keep their links; verify passes, counting the expired bodies, and the chain goes on', async () => {
    const key = await server.key('retention-org');
    await someWrites(server, key);
    const chained = await get(server, key, '/v1/audit/chain');
    const checkpoint = await get(server, key, '/v1/audit/checkpoint');
    const days = (n: number) => () => new Date(Date.now() + n * 86_400_000);
    const purged = await purgeEvents(server.database, days(31), 30 * 86_400_000, deleteDeliveriesOf);
    assert.ok(purged >= chained.data.length, 'every body so far expired');
    assert.deepEqual((await get(server, key, '/v1/events')).data, []);
    assert.deepEqual(await get(server, key, '/v1/audit/chain'), chained, 'the links are kept');

    const expired = await cli(server, ['audit', 'verify', '--org', 'retention-org', '--mode', 'sandbox', '--json']);
    assert.equal(expired.code, 0, expired.out);
    const all = JSON.parse(expired.out);
    assert.equal(all.failure, null);
    assert.equal(all.size, chained.data.length);
    assert.equal(all.expired, chained.data.length);
    assert.equal(all.bodies, 0);

    // New events chain on from the expired ones' hashes; verify checks them and the checkpoint saved before.
    await someWrites(server, key);
    const events = (await get(server, key, '/v1/events?limit=100')).data.reverse();
    assert.equal(events[0].sequence, chained.data.length + 1);
    assert.equal(events[0].chain.prev, chained.data.at(-1).hash);
    const later = await cli(server, [
      'audit',
      'verify',
      '--org',
      'retention-org',
      '--mode',
      'sandbox',
      '--json',
      '--checkpoint',
      saved(JSON.stringify(checkpoint)),
    ]);
    assert.equal(later.code, 0, later.out);
    const result = JSON.parse(later.out);
    assert.equal(result.failure, null);
    assert.equal(result.size, chained.data.length + events.length);
    assert.equal(result.expired, chained.data.length);
    assert.equal(result.bodies, events.length);
    const transactions = events.filter((e: { type: string }) => e.type === 'fintech.transaction.created').length;
    assert.ok(transactions > 0);
    assert.equal(result.rows.ledger_entries, transactions, "the new transactions checked, the expired ones' not");
  });
});

describe(`upgrading to the chain: events numbered before it (${BACKEND})`, () => {
  test('the migration gives each its row (the hash of its body as stored); verify accepts them, and the chain goes on', async () => {
    const fresh = await freshDatabase();
    const database = openDatabase(fresh.url);
    const now = new Date().toISOString();
    // Bodies as the code before the chain wrote them: no `chain`. Two orgs, sandbox and live, interleaved.
    const old: { id: string; org: string; mode: 'sandbox' | 'live'; sequence: number; body: string }[] = [];
    for (let i = 0; i < 7; i++)
      for (const [org, mode] of [
        ['org_OLDA', 'sandbox'],
        ['org_OLDA', 'live'],
        ['org_OLDB', 'sandbox'],
      ] as const) {
        const id = newId('evt');
        const sequence = i + 1;
        const object = { id: newId('acct'), object: 'fintech.account', nickname: 'Grüße ☕' };
        const body = JSON.stringify({
          id,
          object: 'event',
          type: 'fintech.account.created',
          sequence,
          data: { object },
          request: null,
          livemode: mode === 'live',
          created_at: apiTime(now),
        });
        old.push({ id, org, mode, sequence, body });
      }
    let server: Awaited<ReturnType<typeof spawnServer>> | undefined;
    try {
      await migrateBefore(database, '2026-11-28T0900_event_chain');
      await database.write(async (trx) => {
        for (const [id, name] of [
          ['org_OLDA', 'old-a'],
          ['org_OLDB', 'old-b'],
        ])
          await sql`insert into orgs (id, name, created_at) values (${id}, ${name}, ${now})`.execute(trx);
        for (const e of old)
          await sql`insert into events (id, org_id, mode, type, sequence, body, created_at)
            values (${e.id}, ${e.org}, ${e.mode}, 'fintech.account.created', ${e.sequence}, ${e.body}, ${now})`.execute(
            trx,
          );
        for (const [org, mode] of [
          ['org_OLDA', 'sandbox'],
          ['org_OLDA', 'live'],
          ['org_OLDB', 'sandbox'],
        ])
          await sql`insert into event_sequences (org_id, mode, last_sequence) values (${org}, ${mode}, 7)`.execute(trx);
      });
      await database.migrate(ALL_MIGRATIONS);

      const rows = await database.db
        .selectFrom('event_chain')
        .selectAll()
        .orderBy('org_id')
        .orderBy('mode')
        .orderBy('sequence')
        .execute();
      const expected = [...old]
        .sort((a, b) => a.org.localeCompare(b.org) || a.mode.localeCompare(b.mode) || a.sequence - b.sequence)
        .map((e) => ({ org_id: e.org, mode: e.mode, sequence: e.sequence, event_id: e.id, hash: sha256(e.body) }));
      assert.deepEqual(
        rows.map((r) => ({ ...r, sequence: Number(r.sequence) })),
        expected,
      );
      const target = { databaseUrl: fresh.url };
      for (const [org, mode] of [
        ['old-a', 'sandbox'],
        ['old-a', 'live'],
        ['old-b', 'sandbox'],
      ]) {
        const { code, out } = await cli(target, ['audit', 'verify', '--org', org!, '--mode', mode!]);
        assert.equal(code, 0, out);
        assert.match(out, /^ok: .*: 7 events chained/);
      }

      // The upgraded server chains the next event to the last old body.
      server = await spawnServer({ ...UNLIMITED, DATABASE_URL: fresh.url });
      const made = await cli(target, ['keys', 'create', '--org', 'old-a', '--mode', 'sandbox', '--json']);
      assert.equal(made.code, 0, made.out);
      const key = JSON.parse(made.out).key;
      const account = await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        json: { type: 'business', country: 'US' },
      });
      assert.equal(account.status, 200, account.text);
      // Read without the OpenAPI document's check: the old bodies here are made up, shorter than real ones.
      const listed = await fetch(`${server.url}/v1/events?limit=100`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(listed.status, 200);
      const events = ((await listed.json()) as { data: any[] }).data.reverse();
      assert.deepEqual(
        events.map((e: { sequence: number }) => e.sequence),
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
      const lastOld = old.filter((e) => e.org === 'org_OLDA' && e.mode === 'sandbox').at(-1)!;
      assert.equal(events[6].chain, undefined, 'an old body names no previous hash');
      assert.equal(events[7].chain.prev, sha256(lastOld.body));
      assert.equal(events[8].chain.prev, sha256(JSON.stringify(events[7])));
      assert.notEqual(events[7].chain.prev, genesisHash('org_OLDA', 'sandbox'));
      const { code, out } = await cli(target, ['audit', 'verify', '--org', 'old-a', '--mode', 'sandbox']);
      assert.equal(code, 0, out);
      assert.match(out, /^ok: plinth\/org_OLDA\/sandbox: 9 events chained/);
    } finally {
      server?.child.kill('SIGTERM');
      await server?.exited;
      await database.close();
      await fresh.drop();
    }
  });
});

describe('the checkpoint key made ready to sign once per key (signingKeys)', () => {
  test('unsealed and parsed once per key; a rotated key signs under its own id; the oldest of too many is dropped', () => {
    const box = createSecretBox(randomBytes(32));
    let opened = 0;
    const counting = {
      ...box,
      open(stored: string, context: string) {
        opened++;
        return box.open(stored, context);
      },
    };
    const keyOf = signingKeys(counting, 2);
    const row = (n: number) => {
      const { privateKey } = generateKeyPairSync('ed25519');
      const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
      const public_key = publicKeyOf(der).toString('base64');
      const sealed = box.seal(der, contextOf(AUDIT_KEY_COLUMN));
      return {
        id: `akey_${n}`,
        name: 'plinth',
        public_key,
        private_key: sealed,
        active: 1,
        created_at: '',
        retired_at: null,
      };
    };
    const checkpoint = { origin: 'plinth/org_x/sandbox', size: 3, hash: sha256('head') };
    const signedBy = (key: ReturnType<typeof row>) => {
      const result = openCheckpoint(signCheckpoint(checkpoint, keyOf(key)), [
        { name: key.name, publicKey: Buffer.from(key.public_key, 'base64') },
      ]);
      assert.deepEqual(result, { checkpoint }, JSON.stringify(result));
    };
    const [first, rotated, third] = [row(1), row(2), row(3)];
    signedBy(first);
    signedBy(first);
    assert.equal(opened, 1, 'the same key is not unsealed again');
    signedBy(rotated);
    assert.equal(opened, 2, 'a rotated key (a new row) is made ready too');
    assert.equal(keyOf(first), keyOf(first), 'and the first is still held');
    signedBy(third);
    assert.equal(opened, 3);
    signedBy(first);
    assert.equal(opened, 4, 'two held at most: the oldest went, and is made again when wanted');
  });
});
