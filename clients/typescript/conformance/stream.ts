/**
 * Step 25 of the conformance scenario (clients/README.md): the live event stream through the rewriting proxy, which
 * splits each event's data over two lines, adds a comment and a retry field, and loses the connection after every
 * event (ended cleanly, then cut). The iterator yields the last three listed events once each, in order, then a live
 * one; a type filter holds; return() stops it; a revoked key's stream throws PlinthError, 401.
 */
import assert from 'node:assert/strict';
import { PlinthClient, PlinthError } from '@plinth/client';
import { step } from './helpers.js';

export async function streamStep(plinth: PlinthClient, key: string, proxyUrl: string): Promise<void> {
  await step(
    '25 the event stream resumes across lost connections with no gap and no repeat, live and filtered by type',
    async () => {
      const proxied = new PlinthClient({ baseUrl: proxyUrl, apiKey: key });
      const listed = (await plinth.events.listPage({ limit: 3 })).data;
      assert.equal(listed.length, 3);
      const newest = listed[0]!.sequence;
      const stream = proxied.events.stream({ after: newest - 3 });
      const next = async () => {
        const result = await stream.next();
        assert.ok(!result.done, 'the stream ended');
        return result.value;
      };
      const got = [await next(), await next(), await next()];
      assert.deepEqual(
        got.map((e) => [e.id, e.sequence]),
        [...listed].reverse().map((e) => [e.id, e.sequence]),
      );
      const live = await plinth.accounts.create({ type: 'business', country: 'US' });
      const event = await next();
      assert.deepEqual(
        [event.sequence, event.type, event.data.object.id],
        [newest + 1, 'fintech.account.created', live.id],
      );
      await stream.return(undefined);

      const sequences: number[] = [];
      for await (const typed of proxied.events.stream({ type: 'fintech.account.created', after: 0 })) {
        assert.equal(typed.type, 'fintech.account.created');
        sequences.push(typed.sequence);
        if (sequences.length === 3) break;
      }
      assert.ok(sequences[0]! < sequences[1]! && sequences[1]! < sequences[2]!, String(sequences));

      const doomed = await plinth.apiKeys.create({});
      await plinth.apiKeys.revoke(doomed.id);
      const revoked = new PlinthClient({ baseUrl: proxyUrl, apiKey: doomed.key });
      await assert.rejects(revoked.events.stream().next(), (error: unknown) => {
        assert.ok(error instanceof PlinthError);
        assert.equal(error.status, 401);
        return true;
      });
    },
  );
}
