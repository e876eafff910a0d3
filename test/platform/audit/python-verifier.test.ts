/**
 * The Python verifier of docs/api.md ("Verifying the history"), taken from the page itself and run against a live
 * server on both backends, beside `cli audit verify`: on a healthy history of more than one page of events and of
 * the chain, with non-ASCII text and integer-like metadata keys (the bytes it serializes back must be the server's),
 * both say ok, with the same size and head as the signed checkpoint; it extends saved checkpoints and finds kept
 * webhook bodies in the chain; it refuses a checkpoint no pinned key signed and one whose text was changed; after
 * `cli audit rotate-key` a checkpoint signed by the retired key verifies given both keys (and the CLI at once); a key
 * with `events: read` only checks everything but the ledger. The tampering cases are tamper.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  cliVerify,
  installCryptography,
  type Outcome,
  pythonFromTheGuide,
  pythonVerifier,
} from '../../helpers/audit-verifiers.ts';
import { BACKEND } from '../../helpers/database.ts';
import { run } from '../../helpers/process.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { type Client, client } from '../../helpers/webhooks.ts';

const cryptography = installCryptography();
const SKIP = 'skip' in cryptography ? cryptography.skip : false;

/** `ok: <origin>: N events chained, head H; …` → N and H (both verifiers print that much alike). */
function okLine(outcome: Outcome): { size: number; head: string } {
  assert.equal(outcome.code, 0, `the verifier failed:\n${outcome.stdout}${outcome.stderr}`);
  const match = /^ok: plinth\/org_\w+\/sandbox: (\d+) events chained, head ([0-9a-f]{64});/m.exec(outcome.stdout);
  assert.ok(match, outcome.stdout);
  return { size: Number(match[1]), head: match[2]! };
}

describe(`the guide's Python verifier (${BACKEND})`, { skip: SKIP }, () => {
  const server = useServer();
  const python = pythonVerifier(cryptography);
  let api: Client;
  let receiver: Receiver;
  let org = '';
  let publicKey = '';

  before(async () => {
    receiver = await startReceiver();
    api = await client(server, 'python-verifier');
    const hook = await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
    assert.equal(hook.status, 200, hook.text);
    // Text the serializer must give back byte for byte: accents, CJK, an emoji (a surrogate pair in JavaScript),
    // U+2028, quotes and a backslash; and metadata keys that JavaScript orders before the others.
    const account = await api.post('/v1/fintech/accounts', {
      type: 'business',
      country: 'US',
      nickname: 'Café 東京 😀',
      metadata: { zeta: 'naïve \u2028 "quoted" \\', 10: 'ten', 2: 'two' },
    });
    assert.equal(account.status, 200, account.text);
    const id = account.body.id as string;
    // Over a thousand events: two pages of the chain (1,000 a page) and many of the events (100 a page).
    for (let i = 0; i < 1010; i += 10) {
      const deposits = Array.from({ length: 10 }, (_, j) =>
        api.post(`/v1/sandbox/fintech/accounts/${id}/deposits`, {
          amount: 100 + i + j,
          description: `Dépôt n° ${i + j} 💰`,
        }),
      );
      for (const reply of await Promise.all(deposits)) assert.equal(reply.status, 200, reply.text);
    }
    const checkpoint = await api.get('/v1/audit/checkpoint');
    org = (checkpoint.body.origin as string).split('/')[1]!;
    publicKey = (await api.get('/v1/audit/public_key')).body.public_key;
  });
  after(() => receiver?.close());

  test("the Python verifier's code is the guide's ```python block", () => {
    assert.match(pythonFromTheGuide(), /^import base64, hashlib, json, os, sys/m);
  });

  test("a healthy history: both verifiers say ok, with the checkpoint's size and head", async () => {
    const checkpoint = (await api.get('/v1/audit/checkpoint')).body;
    assert.ok(checkpoint.size > 1010, `${checkpoint.size} events`);
    const py = okLine(await python.run(server.url, api.key, [publicKey]));
    const cli = okLine(await cliVerify(server.databaseUrl, org, 'sandbox'));
    assert.deepEqual(py, { size: checkpoint.size, head: checkpoint.hash });
    assert.deepEqual(cli, py);
    const outcome = await python.run(server.url, api.key, [publicKey]);
    assert.match(
      outcome.stdout,
      new RegExp(`; ${checkpoint.size} bodies checked \\(0 expired\\); 1010 transactions agree`),
    );
  });

  test('saved checkpoints are extended and kept webhook bodies are found in the chain', async () => {
    const saved = python.keep('checkpoint-1.json', (await api.get('/v1/audit/checkpoint')).text);
    const delivered = await receiver.until((r) => r.length >= 1011);
    const bodies = [delivered[0]!, delivered[500]!, delivered.at(-1)!].map((r, i) =>
      python.keep(`body-${i}.json`, r.body),
    );
    const more = await api.post('/v1/fintech/accounts', { type: 'business', country: 'GB' });
    assert.equal(more.status, 200, more.text);
    const outcome = await python.run(server.url, api.key, [publicKey], [saved, ...bodies]);
    okLine(outcome);
    assert.match(outcome.stdout, /; extends 1 saved checkpoints; 3 kept events are in the chain$/m);
    okLine(await cliVerify(server.databaseUrl, org, 'sandbox', saved));
  });

  test('a checkpoint no pinned key signed, or whose text was changed, is refused', async () => {
    const other = Buffer.alloc(32, 9).toString('base64');
    const unknown = await python.run(server.url, api.key, [other]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, 'FAILED: no pinned key signed the checkpoint\n');
    const checkpoint = (await api.get('/v1/audit/checkpoint')).body;
    const note = (checkpoint.note as string).replace(`\n${checkpoint.size}\n`, `\n${checkpoint.size + 1}\n`);
    const forged = python.keep('forged.json', JSON.stringify({ ...checkpoint, note }));
    const refused = await python.run(server.url, api.key, [publicKey], [forged]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, "FAILED: a checkpoint's signature does not verify\n");
    const cli = await cliVerify(server.databaseUrl, org, 'sandbox', forged);
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /does not verify/);
  });

  test('a key with events: read only checks everything but the ledger', async () => {
    const made = await api.post('/v1/api_keys', { name: 'Auditor', permissions: { events: 'read' } });
    assert.equal(made.status, 200, made.text);
    const outcome = await python.run(server.url, made.body.key, [publicKey]);
    okLine(outcome);
    assert.match(outcome.stdout, /; transactions not checked \(the key cannot read them\);/);
  });

  test('after a key rotation, a checkpoint the retired key signed verifies given both keys', async () => {
    const saved = python.keep('before-rotation.json', (await api.get('/v1/audit/checkpoint')).text);
    const rotated = await run(['src/cli/main.ts', 'audit', 'rotate-key'], { DATABASE_URL: server.databaseUrl });
    assert.equal(rotated.code, 0, rotated.stderr);
    const fresh = JSON.parse(rotated.stdout).public_key as string;
    const keys = (await api.get('/v1/audit/public_key')).body;
    assert.equal(keys.public_key, fresh);
    assert.equal(keys.retired_keys[0].public_key, publicKey);
    // The current checkpoint is signed by the new key: the old one alone no longer verifies it.
    assert.equal((await python.run(server.url, api.key, [publicKey])).code, 1);
    const newOnly = await python.run(server.url, api.key, [fresh], [saved]);
    assert.equal(newOnly.code, 1);
    assert.equal(newOnly.stdout, 'FAILED: no pinned key signed the checkpoint\n');
    const both = await python.run(server.url, api.key, [fresh, publicKey], [saved]);
    okLine(both);
    assert.match(both.stdout, /; extends 1 saved checkpoints;/);
    okLine(await cliVerify(server.databaseUrl, org, 'sandbox', saved));
  });
});
