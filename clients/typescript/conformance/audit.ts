/**
 * Step 27 of the conformance scenario (clients/README.md): the audit chain. A write, then the signed checkpoint; the
 * whole chain paged with `after` (oldest first) ends where the checkpoint says, at its `size` with its `hash`; the
 * note's three lines name the same chain, and its signature verifies with the public key (node:crypto's Ed25519).
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import type { PlinthClient } from '@plinth/client';
import { step } from './helpers.js';

export async function auditStep(plinth: PlinthClient): Promise<void> {
  await step('27 audit: the chain paged with after matches the signed checkpoint and its key', async () => {
    await plinth.accounts.create({ type: 'business', country: 'US' });
    const checkpoint = await plinth.audit.retrieveCheckpoint();
    const links: { sequence: number; hash: string }[] = [];
    for (let after = 0; ; ) {
      const page = await plinth.audit.listChain({ after, limit: 7 });
      links.push(...page.data);
      if (!page.has_more) break;
      after = page.data.at(-1)!.sequence;
    }
    assert.deepEqual(
      links.map((l) => l.sequence),
      links.map((_, i) => i + 1),
      'sequences 1, 2, … with no gap',
    );
    assert.equal(links.length, checkpoint.size);
    assert.equal(links.at(-1)!.hash, checkpoint.hash);

    const key = await plinth.audit.retrievePublicKey();
    assert.equal(key.algorithm, 'ed25519');
    assert.ok(key.verifier_key.startsWith(`plinth+${key.key_id}+`), key.verifier_key);
    const note = checkpoint.note;
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    assert.deepEqual(text.split('\n').slice(0, 3), [
      checkpoint.origin,
      String(checkpoint.size),
      Buffer.from(checkpoint.hash, 'hex').toString('base64'),
    ]);
    const line = note
      .slice(text.length + 1)
      .split('\n')
      .find((l) => l.startsWith(`\u2014 ${key.name} `));
    assert.ok(line, `no signature line of ${key.name} in ${JSON.stringify(note)}`);
    const signed = Buffer.from(line.slice(`\u2014 ${key.name} `.length), 'base64');
    assert.equal(signed.subarray(0, 4).toString('hex'), key.key_id);
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.public_key, 'base64').toString('base64url') },
      format: 'jwk',
    });
    assert.ok(verify(null, Buffer.from(text, 'utf8'), publicKey, signed.subarray(4)), 'the note is signed by the key');
  });
}
