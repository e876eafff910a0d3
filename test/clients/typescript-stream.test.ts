/**
 * The TypeScript client's `events.stream()` (clients/typescript/src/stream.ts), compiled as the package ships it,
 * against a real server: an iterator over the live events that resumes by itself. A fetch that cuts every stream
 * connection after its first event stands for a flaky network: the iterator still yields 1..n once each, in order,
 * byte for byte the events the list returns, then the next live one; a revoked key ends it with a PlinthError.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BACKEND } from '../helpers/database.ts';
import { useServer } from '../helpers/server.ts';

const ONCE = BACKEND === 'postgres' && 'backend-independent: runs in the SQLite pass';
const ROOT = join(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** A fetch whose event-stream responses end right after their first event (what follows it is lost). */
function cuttingFetch(counter: { connections: number }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).includes('/v1/events/stream') || response.body === null || !response.ok) return response;
    counter.connections++;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += decoder.decode(value, { stream: true });
        const data = seen.indexOf('data:');
        const end = data === -1 ? -1 : seen.indexOf('\n\n', data);
        if (end === -1) return;
        controller.enqueue(new TextEncoder().encode(seen.slice(0, end + 2)));
        controller.close();
        await reader.cancel();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

describe('the TypeScript client: events.stream()', { skip: ONCE }, () => {
  const server = useServer();
  const dist = mkdtempSync(join(tmpdir(), 'plinth-ts-stream-'));
  after(() => rmSync(dist, { recursive: true, force: true }));

  test('yields every event once, in order, across connections cut after each event; then live ones', async () => {
    const build = spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'clients/typescript'), '--outDir', dist]);
    assert.equal(build.status, 0, String(build.stdout));
    const { PlinthClient, PlinthError } = await import(pathToFileURL(join(dist, 'src/index.js')).href);
    const counter = { connections: 0 };
    const apiKey = await server.key('ts-stream');
    const plinth = new PlinthClient({ baseUrl: server.url, apiKey, fetch: cuttingFetch(counter) });
    for (let i = 0; i < 3; i++) await plinth.accounts.create({ type: 'business', country: 'US' });
    const listed = [];
    for await (const event of plinth.events.list()) listed.unshift(event);
    assert.equal(listed.length, 4);

    const stream = plinth.events.stream({ after: 0 });
    const got = [];
    for (let i = 0; i < listed.length; i++) got.push((await stream.next()).value);
    assert.deepEqual(got, listed);
    assert.ok(counter.connections >= 2, `${counter.connections} connections`);
    const live = await plinth.accounts.create({ type: 'business', country: 'US' });
    const next = (await stream.next()).value;
    assert.deepEqual([next.sequence, next.type, next.data.object.id], [5, 'fintech.account.created', live.id]);
    await stream.return(undefined);

    const doomed = await plinth.apiKeys.create({});
    await plinth.apiKeys.revoke(doomed.id);
    const revoked = new PlinthClient({ baseUrl: server.url, apiKey: doomed.key });
    await assert.rejects(revoked.events.stream().next(), (error: Error) => {
      assert.ok(error instanceof PlinthError);
      assert.equal((error as { status?: number }).status, 401);
      return true;
    });
  });
});
