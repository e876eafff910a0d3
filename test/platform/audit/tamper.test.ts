/**
 * Tampering is found (issue 43, docs/api.md#verifying-the-history), on both backends, by `cli audit verify` (the
 * database) and by the guide's Python verifier (the HTTP API and the pinned key only), which agree on every case:
 * the exit code, and the sequence they name. Each case is one organisation's history, changed as the database's
 * superuser with the append-only triggers out of the way (PostgreSQL: `session_replication_role = replica`; SQLite:
 * the triggers dropped, the change made, the triggers made again, in one transaction):
 *   (a) one transaction's amount changed in ledger_entries: both name the sequence of its
 *       `fintech.transaction.created` event (the CLI names the table; the Python verifier sees the change through
 *       `GET /v1/fintech/transactions/{id}`, which reads the changed row);
 *   (b) the last three events and their links deleted, and the event counter rolled back, as a careful attacker
 *       would: nothing shows it but a checkpoint saved before, against which both say "shorter than the checkpoint";
 *   an event body edited in place, its link left alone: both name its sequence (the body no longer hashes to it);
 *   (c) an event edited (with the ledger row it reports) and the whole chain after it recomputed, every body's
 *       `chain.prev` and every hash in order: both say ok without outside copies (the honest limit), both fail
 *       against a checkpoint saved before, and a webhook body captured earlier no longer matches the chain.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Database, Trx } from '../../../src/db/database.ts';
import { cliVerify, installCryptography, pythonVerifier, sequenceNamed } from '../../helpers/audit-verifiers.ts';
import { BACKEND } from '../../helpers/database.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

const cryptography = installCryptography();
const SKIP = 'skip' in cryptography ? cryptography.skip : false;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What the database's superuser can do: a change the append-only triggers would refuse. */
async function behindTheTriggers(database: Database, work: (trx: Trx) => Promise<void>): Promise<void> {
  await database.write(async (trx) => {
    if (BACKEND === 'postgres') {
      await sql`set local session_replication_role = replica`.execute(trx);
      await work(trx);
      return;
    }
    const { rows } = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'trigger'`.execute(trx);
    for (const trigger of rows) await sql.raw(`drop trigger ${trigger.name}`).execute(trx);
    await work(trx);
    for (const trigger of rows) await sql.raw(trigger.sql).execute(trx);
  });
}

describe(`tampering is found by both verifiers (${BACKEND})`, { skip: SKIP }, () => {
  const server = useServer();
  const python = pythonVerifier(cryptography);
  let publicKey = '';

  /** An org with an account and a deposit for each description; its client, org id and the account's id. */
  async function history(name: string, descriptions: string[], api?: Client) {
    api ??= await client(server, name);
    const account = await api.post('/v1/fintech/accounts', { type: 'business', country: 'US', nickname: name });
    assert.equal(account.status, 200, account.text);
    for (const [i, description] of descriptions.entries()) {
      const deposit = await api.post(`/v1/sandbox/fintech/accounts/${account.body.id}/deposits`, {
        amount: 1000 + i,
        description,
      });
      assert.equal(deposit.status, 200, deposit.text);
    }
    const org = ((await api.get('/v1/audit/checkpoint')).body.origin as string).split('/')[1]!;
    return { api, org, account: account.body.id };
  }

  /** Both verifiers, on the same history and the same saved files; their outcomes. */
  async function both(api: Client, org: string, checkpointFile?: string) {
    const saved = checkpointFile === undefined ? [] : [checkpointFile];
    const [cli, py] = [
      await cliVerify(server.databaseUrl, org, 'sandbox', checkpointFile),
      await python.run(server.url, api.key, [publicKey], saved),
    ];
    return { cli, py };
  }

  /** The event of a type that reports an object, from the API. */
  async function eventOf(api: Client, type: string, objectId: string) {
    const list = await api.get(`/v1/events?type=${type}&limit=100`);
    const event = list.body.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === objectId);
    assert.ok(event, `no ${type} event for ${objectId}`);
    return event as { id: string; sequence: number; data: { object: { id: string; source: { id: string } } } };
  }

  before(async () => {
    publicKey = (await (await client(server, 'tamper-keys')).get('/v1/audit/public_key')).body.public_key;
  });

  test("(a) one transaction's amount changed in ledger_entries: both name its event's sequence", async () => {
    const { api, org, account } = await history('tamper-a', ['one', 'two', 'three']);
    const transactions = await api.get(`/v1/fintech/accounts/${account}/transactions?limit=10`);
    const second = transactions.body.data.find((t: { description: string }) => t.description === 'two');
    const event = await eventOf(api, 'fintech.transaction.created', second.id);
    const before = await both(api, org);
    assert.equal(before.cli.code, 0, before.cli.stdout);
    assert.equal(before.py.code, 0, before.py.stdout);

    await behindTheTriggers(server.database, async (trx) => {
      await sql`update ledger_entries set amount = amount + 500 where id = ${second.id}`.execute(trx);
    });

    // The triggers are back: the change above was the superuser's, not something the application can do.
    await assert.rejects(
      server.database.write((trx) => sql`delete from event_chain where org_id = ${org}`.execute(trx)),
      /event_chain is append-only/,
    );

    const { cli, py } = await both(api, org);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    assert.match(
      cli.stdout,
      new RegExp(`^FAILED: plinth/${org}/sandbox: sequence ${event.sequence}: ledger_entries: `),
    );
    assert.match(cli.stdout, new RegExp(`transaction ${second.id} differs from its event in amount`));
    assert.equal(py.code, 1, py.stdout + py.stderr);
    assert.match(py.stdout, new RegExp(`transaction ${second.id} now differs from its event in amount`));
    assert.equal(sequenceNamed(py), sequenceNamed(cli));
    assert.equal(sequenceNamed(py), event.sequence);
  });

  test('(b) the last three events and their links deleted: shorter than the checkpoint saved before', async () => {
    const { api, org, account } = await history('tamper-b', ['one', 'two']);
    for (const n of [1, 2, 3]) {
      const update = await api.post(`/v1/fintech/accounts/${account}`, { metadata: { step: String(n) } });
      assert.equal(update.status, 200, update.text);
    }
    const checkpoint = await api.get('/v1/audit/checkpoint');
    const size = checkpoint.body.size as number;
    const saved = python.keep('b-checkpoint.json', checkpoint.text);

    await behindTheTriggers(server.database, async (trx) => {
      const gone = await sql<{ event_id: string }>`select event_id from event_chain
        where org_id = ${org} and mode = 'sandbox' and sequence > ${size - 3}`.execute(trx);
      assert.equal(gone.rows.length, 3);
      const ids = gone.rows.map((r) => r.event_id);
      await sql`delete from webhook_deliveries where event_id in (${sql.join(ids)})`.execute(trx);
      await sql`delete from events where id in (${sql.join(ids)})`.execute(trx);
      await sql`delete from event_chain where org_id = ${org} and mode = 'sandbox' and sequence > ${size - 3}`.execute(
        trx,
      );
      await sql`update event_sequences set last_sequence = ${size - 3}
        where org_id = ${org} and mode = 'sandbox'`.execute(trx);
    });

    // Careful enough that, without the checkpoint, neither sees it.
    const blind = await both(api, org);
    assert.equal(blind.cli.code, 0, blind.cli.stdout);
    assert.equal(blind.py.code, 0, blind.py.stdout);
    const { cli, py } = await both(api, org, saved);
    const shorter = `the chain \\(${size - 3}\\) is shorter than the checkpoint \\(${size}\\)`;
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    assert.match(
      cli.stdout,
      new RegExp(`^FAILED: plinth/${org}/sandbox: sequence ${size - 2}: event_chain: ${shorter}`),
    );
    assert.equal(py.code, 1, py.stdout + py.stderr);
    assert.match(py.stdout, new RegExp(`^FAILED: plinth/${org}/sandbox: sequence ${size - 2}: ${shorter}`));
    assert.equal(sequenceNamed(py), sequenceNamed(cli));
  });

  test('an event body edited in place, its link left alone: both name its sequence', async () => {
    const { api, org, account } = await history('tamper-body', ['one', 'two', 'three']);
    const transactions = await api.get(`/v1/fintech/accounts/${account}/transactions?limit=10`);
    const one = transactions.body.data.find((t: { description: string }) => t.description === 'one');
    const event = await eventOf(api, 'fintech.transaction.created', one.id);
    await behindTheTriggers(server.database, async (trx) => {
      const { rows } = await sql<{ body: string }>`select body from events where id = ${event.id}`.execute(trx);
      const body = JSON.parse(rows[0]!.body);
      body.data.object.amount = 1;
      await sql`update events set body = ${JSON.stringify(body)} where id = ${event.id}`.execute(trx);
    });
    const { cli, py } = await both(api, org);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    assert.match(
      cli.stdout,
      new RegExp(`sequence ${event.sequence}: events: its body does not hash to the chain's hash`),
    );
    assert.equal(py.code, 1, py.stdout + py.stderr);
    assert.match(py.stdout, new RegExp(`sequence ${event.sequence}: its body does not hash to the chain's hash`));
    assert.equal(sequenceNamed(py), sequenceNamed(cli));
  });

  describe('(c) an edit, and the whole chain after it rewritten consistently', () => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver?.close());

    test('both fail against the checkpoint saved before, and a webhook body captured earlier no longer matches', async () => {
      const api = await client(server, 'tamper-c');
      const hook = await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
      assert.equal(hook.status, 200, hook.text);
      const { org, account } = await history('tamper-c', ['rent', 'salary', 'bonus', 'interest'], api);
      const transactions = await api.get(`/v1/fintech/accounts/${account}/transactions?limit=10`);
      const rent = transactions.body.data.find((t: { description: string }) => t.description === 'rent');
      const edited = await eventOf(api, 'fintech.transaction.created', rent.id);
      const checkpoint = await api.get('/v1/audit/checkpoint');
      const size = checkpoint.body.size as number;
      const saved = python.keep('c-checkpoint.json', checkpoint.text);
      // What a customer's receiver kept: the body of the last event, delivered before the rewrite.
      const delivered = await receiver.until((r) => r.some((d) => JSON.parse(d.body).sequence === size));
      const captured = delivered.find((d) => JSON.parse(d.body).sequence === size)!.body;
      const kept = python.keep('c-webhook-body.json', captured);
      assert.ok(edited.sequence < size);

      // "rent" becomes "refund", in the ledger (the journal's description) and in the event that reports it; then
      // every body from there on names the new previous hash, and every link holds the new hash.
      await behindTheTriggers(server.database, async (trx) => {
        await sql`update ledger_journals set description = 'refund' where id = ${rent.source.id}`.execute(trx);
        const { rows } = await sql<{ sequence: number | string; event_id: string; body: string }>`
          select c.sequence, c.event_id, e.body from event_chain c join events e on e.id = c.event_id
          where c.org_id = ${org} and c.mode = 'sandbox' and c.sequence >= ${edited.sequence}
          order by c.sequence`.execute(trx);
        let prev = (
          await sql<{ hash: string }>`select hash from event_chain where org_id = ${org} and mode = 'sandbox'
            and sequence = ${edited.sequence - 1}`.execute(trx)
        ).rows[0]!.hash;
        for (const row of rows) {
          const body = JSON.parse(row.body);
          if (row.event_id === edited.id) body.data.object.description = 'refund';
          body.chain.prev = prev;
          const text = JSON.stringify(body);
          prev = sha256(text);
          await sql`update events set body = ${text} where id = ${row.event_id}`.execute(trx);
          await sql`update event_chain set hash = ${prev} where event_id = ${row.event_id}`.execute(trx);
        }
      });
      assert.equal((await api.get(`/v1/fintech/transactions/${rent.id}`)).body.description, 'refund');

      // Consistent: given nothing kept from before, both say ok (docs/api.md, "The honest limit").
      const blind = await both(api, org);
      assert.equal(blind.cli.code, 0, blind.cli.stdout);
      assert.equal(blind.py.code, 0, blind.py.stdout);
      assert.notEqual((await api.get('/v1/audit/checkpoint')).body.hash, checkpoint.body.hash);

      const { cli, py } = await both(api, org, saved);
      const differs = `the chain at ${size} hashes to [0-9a-f]{64}, the checkpoint says ${checkpoint.body.hash}`;
      assert.equal(cli.code, 1, cli.stdout + cli.stderr);
      assert.match(cli.stdout, new RegExp(`^FAILED: plinth/${org}/sandbox: sequence ${size}: event_chain: ${differs}`));
      assert.equal(py.code, 1, py.stdout + py.stderr);
      assert.match(py.stdout, new RegExp(`^FAILED: plinth/${org}/sandbox: sequence ${size}: ${differs}`));
      assert.equal(sequenceNamed(py), sequenceNamed(cli));

      // The captured webhook body, checked as a customer would: its chain.prev is not the chain's previous hash.
      const body = JSON.parse(captured);
      const link = (await api.get(`/v1/audit/chain?after=${size - 2}&limit=1`)).body.data[0];
      assert.equal(link.sequence, size - 1);
      assert.notEqual(body.chain.prev, link.hash);
      const witness = await python.run(server.url, api.key, [publicKey], [kept]);
      assert.equal(witness.code, 1, witness.stdout);
      assert.match(
        witness.stdout,
        new RegExp(`^FAILED: plinth/${org}/sandbox: sequence ${size}: the kept event ${body.id} is not the chain's`),
      );
    });
  });
});
