/**
 * An independent check of our signed notes (docs/api.md#verifying-the-history): a live server's checkpoint, verified
 * by the Go module proxy's own C2SP signed-note code (golang.org/x/mod/sumdb/note, in ./note_check) with nothing but
 * the `verifier_key` of GET /v1/audit/public_key. A note altered by one byte, or checked against another key, is
 * refused by it too, so its acceptance means something. Skipped, saying why, on a machine without `go`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { call, startServer, useServer } from '../../helpers/server.ts';

const SOURCE = new URL('./note_check/', import.meta.url).pathname;
const GO = spawnSync('go', ['version'], { encoding: 'utf8' });
const NO_GO = GO.status === 0 ? false : 'no `go` on this machine: the independent check of signed notes needs Go 1.26';

describe(`checkpoints verified by golang.org/x/mod/sumdb/note (${BACKEND})`, { skip: NO_GO }, () => {
  const server = useServer();
  let dir: string;
  let binary: string;
  let key: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'note-check-'));
    binary = join(dir, 'note_check');
    // The module's one dependency comes from the Go module proxy (go.sum pins it), or the module cache.
    const built = spawnSync('go', ['build', '-o', binary, '.'], { cwd: SOURCE, encoding: 'utf8' });
    assert.equal(built.status, 0, `go build: ${built.stderr}`);
    key = await server.key('note-org');
    const m = money(server.url, key);
    const a = await m.account();
    await m.post(`/v1/sandbox/fintech/accounts/${a}/deposits`, { amount: 5_000, description: 'Überweisung — ☕' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const check = (verifierKey: string, note: string) =>
    spawnSync(binary, [verifierKey], { input: note, encoding: 'utf8' });
  const get = async (path: string, as = key) => {
    const reply = await call(server.url, 'GET', path, { key: as });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };

  test("a checkpoint's note verifies under the published verifier key, and reads as the checkpoint says", async () => {
    const publicKey = await get('/v1/audit/public_key');
    const checkpoint = await get('/v1/audit/checkpoint');
    assert.ok(checkpoint.size >= 3, 'the key, the account and the deposit were chained');
    const result = check(publicKey.verifier_key, checkpoint.note);
    assert.equal(result.status, 0, `sumdb/note refused it: ${result.stdout}${result.stderr}`);
    assert.equal(
      result.stdout,
      `${checkpoint.origin}\n${checkpoint.size}\n${Buffer.from(checkpoint.hash, 'hex').toString('base64')}\n`,
    );
  });

  test('a note altered by one byte, or checked against another key, is refused', async () => {
    const publicKey = await get('/v1/audit/public_key');
    const checkpoint = await get('/v1/audit/checkpoint');
    const [origin, size, ...rest] = checkpoint.note.split('\n');
    const altered = [origin, String(Number(size) + 1), ...rest].join('\n');
    const refused = check(publicKey.verifier_key, altered);
    assert.equal(refused.status, 1);
    assert.match(refused.stdout, /note refused: invalid signature for key plinth\+/);
    // Another instance's key (a database of its own), of the same name: its id differs, so no signature is
    // one it can check.
    const second = await startServer();
    const other = await call(second.url, 'GET', '/v1/audit/public_key', { key: await second.key('other') });
    await second.close();
    assert.equal(other.status, 200, other.text);
    const foreign = check(other.body.verifier_key, checkpoint.note);
    assert.equal(foreign.status, 1);
    assert.match(foreign.stdout, /note refused: note has no verifiable signatures/);
  });
});
