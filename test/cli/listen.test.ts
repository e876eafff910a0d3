/**
 * `cli listen` (README, webhooks on your laptop): prints one line per event and forwards each one, signed per
 * Standard Webhooks with the secret it prints at start, verified here by the reference `standardwebhooks` library;
 * a failed forward is retried; after the server ends the stream (EVENT_STREAM_MAX_SECONDS) it resumes by
 * Last-Event-ID with nothing missed or repeated.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { listen } from '../../src/cli/listen.ts';
import { BACKEND } from '../helpers/database.ts';
import { ROOT, run } from '../helpers/process.ts';
import { startReceiver, webhookHeaders } from '../helpers/receiver.ts';
import { useServer } from '../helpers/server.ts';
import { client } from '../helpers/webhooks.ts';

const ACCOUNT = { type: 'business', country: 'US' };
const LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) {2}(\d+) {2}(\S+) {2}(\S+)$/;

describe(`cli listen (${BACKEND})`, () => {
  const server = useServer({ EVENT_STREAM_MAX_SECONDS: '1' });
  const stops: (() => void)[] = [];
  after(() => {
    for (const stop of stops) stop();
  });

  test('prints each event once and forwards it signed, retrying, across reconnections', async () => {
    const api = await client(server, 'listen-org');
    const receiver = await startReceiver();
    stops.push(() => void receiver.close());
    receiver.answer = (_, index) => ({ status: index === 0 ? 500 : 200 }); // the first attempt fails
    const args = ['src/cli/main.ts', 'listen', '--api', server.url, '--key', api.key, '--forward-to', receiver.url];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    stops.push(() => child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    while (!stderr.includes('Ready:')) {
      assert.equal(child.exitCode, null, `cli listen exited: ${stderr}`);
      await sleep(25);
    }
    const secret = /signed with (whsec_\S+)/.exec(stderr)![1]!;

    const account = (await api.post('/v1/fintech/accounts', ACCOUNT)).body;
    await api.post(`/v1/fintech/accounts/${account.id}/freeze`, { reason: 'other' });
    await sleep(1500); // the server ends each stream after a second: the next event comes on a new connection
    const second = (await api.post('/v1/fintech/accounts', ACCOUNT)).body;
    const received = await receiver.until((r) => r.length >= 4, 30_000);
    await sleep(200);

    assert.equal(received.length, 4, 'one retry, then each event once');
    assert.equal(received[0]!.headers['webhook-id'], received[1]!.headers['webhook-id'], 'the retry is the same event');
    const delivered = received.slice(1).map((r) => new Webhook(secret).verify(r.body, webhookHeaders(r)) as any);
    assert.deepEqual(
      delivered.map((e) => [e.sequence, e.type, e.data.object.id]),
      [
        [2, 'fintech.account.created', account.id],
        [3, 'fintech.account.frozen', account.id],
        [4, 'fintech.account.created', second.id],
      ],
    );
    for (const r of received.slice(1)) {
      assert.equal(r.body, (await api.get(`/v1/events/${JSON.parse(r.body).id}`)).text, 'the bytes of the event');
    }
    const lines = stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => LINE.exec(l)?.slice(2)),
      [
        ['2', 'fintech.account.created', account.id],
        ['3', 'fintech.account.frozen', account.id],
        ['4', 'fintech.account.created', second.id],
      ],
      stdout,
    );
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, stderr);
  });

  test('without --key or PLINTH_API_KEY: exit 64 naming both; a revoked or unknown key: exit 1', async () => {
    const missing = await run(['src/cli/main.ts', 'listen', '--api', server.url], { PLINTH_API_KEY: '' });
    assert.equal(missing.code, 64);
    assert.match(missing.stderr, /PLINTH_API_KEY.*--key/);
    const unknown = await run(['src/cli/main.ts', 'listen', '--api', server.url, '--key', 'sk_test_nope']);
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /401/);
  });

  /** Runs `cli listen` with these arguments and environment until the test ends; resolves once it is ready. */
  async function listening(args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, ['src/cli/main.ts', 'listen', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stops.push(() => child.kill('SIGKILL'));
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (c: Buffer) => (output.stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output.stderr += c.toString()));
    while (!output.stderr.includes('Ready:')) {
      assert.equal(child.exitCode, null, `cli listen exited: ${output.stderr}`);
      await sleep(25);
    }
    return { child, output };
  }

  test('--api and --key default to PLINTH_API_BASE and PLINTH_API_KEY: no key on the command line', async () => {
    const api = await client(server, 'listen-env');
    const { output } = await listening([], { PLINTH_API_BASE: server.url, PLINTH_API_KEY: api.key });
    assert.match(output.stderr, new RegExp(`listening to ${server.url}`));
    const account = (await api.post('/v1/fintech/accounts', ACCOUNT)).body;
    while (!output.stdout.includes(account.id)) await sleep(25);
    assert.deepEqual(LINE.exec(output.stdout.trim())?.slice(2), ['2', 'fintech.account.created', account.id]);
  });

  test('a receiver that never answers: each attempt ends after WEBHOOK_TIMEOUT_SECONDS, later events follow', async () => {
    const api = await client(server, 'listen-timeout');
    const receiver = await startReceiver();
    stops.push(() => void receiver.close());
    // The first request is never answered (within the test); every later one at once.
    receiver.answer = (_, index) => (index === 0 ? { status: 200, delayMs: 600_000 } : { status: 200 });
    const args = ['--api', server.url, '--key', api.key, '--forward-to', receiver.url];
    const { output } = await listening(args, { WEBHOOK_TIMEOUT_SECONDS: '1' });
    const first = (await api.post('/v1/fintech/accounts', ACCOUNT)).body;
    const second = (await api.post('/v1/fintech/accounts', ACCOUNT)).body;
    // Before, the first attempt waited for ever and nothing after it was forwarded: this waited until the test's end.
    const received = await receiver.until((r) => r.length >= 3, 60_000);
    assert.deepEqual(
      received.map((r) => JSON.parse(r.body).data.object.id),
      [first.id, first.id, second.id],
      'the first event again after its attempt timed out, then the second',
    );
    assert.match(output.stderr, /no answer within 1 s/);
  });

  test('the forwarding queue is bounded: when it is full, reading the stream pauses; nothing is lost', async () => {
    const api = await client(server, 'listen-queue');
    const receiver = await startReceiver();
    stops.push(() => void receiver.close());
    receiver.answer = (_, index) => (index === 0 ? { status: 200, delayMs: 2000 } : { status: 200 });
    const stop = new AbortController();
    stops.push(() => stop.abort());
    const printed: string[] = [];
    const said: string[] = [];
    let printedWhenPaused: number | undefined;
    const done = listen({
      api: server.url,
      key: api.key,
      forwardTo: receiver.url,
      queueLimit: 2,
      signal: stop.signal,
      out: (line) => printed.push(line),
      err: (line) => {
        said.push(line);
        if (line.includes('reading paused')) printedWhenPaused ??= printed.length;
      },
    });
    while (!said.some((l) => l.startsWith('Ready:'))) await sleep(25);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post('/v1/fintech/accounts', ACCOUNT)).body.id);
    const received = await receiver.until((r) => r.length >= 5, 60_000);
    assert.equal(printedWhenPaused, 2, `reading paused with 2 events waiting (one in flight): ${said.join(' | ')}`);
    assert.deepEqual(
      received.map((r) => JSON.parse(r.body).data.object.id),
      ids,
      'every event forwarded once, in order',
    );
    assert.equal(printed.length, 5);
    stop.abort();
    assert.equal(await done, 0);
  });
});
