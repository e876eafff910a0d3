/**
 * SQLite's commits made durable off the event loop (docs/internals.md#durable-commits-off-the-event-loop): the
 * writer's COMMIT does not sync; the WAL's fdatasync runs on libuv's pool and every answer waits for it; checkpoints
 * run on their own thread and the WAL stays bounded. strace fails or slows the fdatasync of a real server.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/open.ts';
import { WAL_LIMIT_FRAMES } from '../../src/db/sqlite/sqlite-checkpointer.ts';
import { BACKEND } from '../helpers/database.ts';
import { ROOT, run, spawnServer } from '../helpers/process.ts';
import { rowsInFileAlone } from '../helpers/sqlite-file.ts';

const strace = spawnSync('strace', ['-f', '-o', '/dev/null', 'true']);
const noStrace = strace.error !== undefined || strace.status !== 0;
// CI installs strace (.ci/run); elsewhere a machine without it (or without ptrace) skips these, saying so.
const straceSkip = noStrace && !process.env.CI ? 'strace is missing or cannot trace here' : false;

const CREATE = JSON.stringify({ type: 'business', country: 'US' });

describe('durable commits off the event loop (SQLite)', { skip: BACKEND === 'sqlite' ? false : 'SQLite only' }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-durable-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A server on a new database, with strace attached to every thread of it once it serves, injecting `inject`; `env`
   * joins its environment, and `quiet` runs before strace attaches.
   */
  async function serverUnder(
    name: string,
    inject: string,
    { env = {}, quiet }: { env?: Record<string, string>; quiet?: (url: string, key: string) => Promise<void> } = {},
  ) {
    const url = `sqlite:${join(dir, `${name}.db`)}`;
    const made = await run(['src/cli/main.ts', 'keys', 'create', '--org', name, '--mode', 'sandbox'], {
      DATABASE_URL: url,
    });
    assert.equal(made.code, 0, made.stderr);
    const server = await spawnServer({ DATABASE_URL: url, ...env });
    await quiet?.(server.url, made.stdout.trim());
    const tracer = spawn(
      'strace',
      [
        '-f',
        '-p',
        String(server.child.pid),
        '-o',
        '/dev/null',
        '-e',
        'trace=fdatasync',
        '-e',
        `inject=fdatasync:${inject}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // strace says "Process N attached with M threads" once it holds every thread of the server.
    await new Promise<void>((resolve, reject) => {
      let said = '';
      tracer.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('attached')) resolve();
      });
      tracer.on('exit', (code) => reject(new Error(`strace exited ${code}: ${said}`)));
    });
    const key = made.stdout.trim();
    const create = () =>
      fetch(`${server.url}/v1/fintech/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: CREATE,
      });
    const stop = async () => {
      server.child.kill('SIGKILL');
      tracer.kill('SIGKILL');
      await server.exited;
    };
    return { server, key, create, stop };
  }

  test('a write whose WAL sync fails is refused (503), and so is every write after it', {
    skip: straceSkip,
  }, async () => {
    // Every fdatasync fails from now on (start-up's probe of the WAL succeeded: the server would not serve).
    const { create, stop } = await serverUnder('eio', 'error=EIO');
    try {
      const first = await create();
      const problem = (await first.json()) as { code: string };
      assert.equal(first.status, 503, 'a commit that could not be synced is not acknowledged');
      assert.equal(problem.code, 'service_unavailable');
      const second = await create();
      await second.arrayBuffer();
      assert.equal(second.status, 503, 'nothing is acknowledged once a sync failed');
    } finally {
      await stop();
    }
  });

  test('a read does not show a commit before its sync has finished', {
    skip: straceSkip,
    timeout: 60_000,
  }, async () => {
    // Every fdatasync takes 3 s from now on: a commit is visible to the reader long before it is durable.
    const { server, key, create, stop } = await serverUnder('slow', 'delay_enter=3000000');
    try {
      let createdAt = Number.POSITIVE_INFINITY;
      const created = create().then(async (r) => {
        createdAt = performance.now();
        return { status: r.status, id: ((await r.json()) as { id: string }).id };
      });
      // Reads while the create waits for its sync: none may list the account before the create is answered.
      let listedAt = Number.NaN;
      while (Number.isNaN(listedAt)) {
        const list = await fetch(`${server.url}/v1/fintech/accounts`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(list.status, 200);
        const { data } = (await list.json()) as { data: unknown[] };
        if (data.length > 0) listedAt = performance.now();
        // A read no longer waits for the sync: paced below the key's rate limit (25 a second).
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { status } = await created;
      assert.equal(status, 200);
      // Both answers leave on the same sync's completion; without the wait the list came ~3 s before the create.
      assert.ok(
        listedAt >= createdAt - 1000,
        `the account was listed ${createdAt - listedAt} ms before it was durable`,
      );
    } finally {
      await stop();
    }
  });

  test("a read is answered during another write's sync, without it; a write's answer is followed by reads of it", {
    skip: straceSkip,
    timeout: 60_000,
  }, async () => {
    // Made before strace attaches, so durable: the server's own first writes (the audit key) and one account.
    let first = '';
    const quiet = async (url: string, key: string) => {
      const made = await fetch(`${url}/v1/audit/public_key`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(made.status, 200, await made.text());
      const created = await fetch(`${url}/v1/fintech/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: CREATE,
      });
      assert.equal(created.status, 200);
      first = ((await created.json()) as { id: string }).id;
    };
    // Every fdatasync takes 5 s from now on.
    const { server, key, create, stop } = await serverUnder('snapshot', 'delay_enter=5000000', { quiet });
    const get = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
    const reader = new DatabaseSync(join(dir, 'snapshot.db'), { readOnly: true });
    try {
      let answered = false;
      const created = create().then(async (r) => {
        answered = true;
        return { status: r.status, id: ((await r.json()) as { id: string }).id };
      });
      // The second account is committed (another connection sees it), and its sync takes 5 s.
      const accounts = reader.prepare('select count(*) as n from accounts');
      while (Number(accounts.get()!.n) < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      const retrieved = await get(`/v1/fintech/accounts/${first}`);
      assert.equal(retrieved.status, 200);
      await retrieved.arrayBuffer();
      // Before, a read waited until every commit made before its answer was durable: the create's sync, 5 s.
      assert.equal(answered, false, 'the read of a durable account waited for the sync of another write');
      const listed = await get('/v1/fintech/accounts');
      const { data } = (await listed.json()) as { data: { id: string }[] };
      // Before, the list showed the second account (and left only once it was durable); now it does not read it.
      assert.deepEqual(
        data.map((a) => a.id),
        [first],
        'a read showed a commit whose sync was in flight',
      );
      assert.equal(answered, false);
      const { status, id } = await created;
      assert.equal(status, 200);
      // Answered once durable: every read from then on shows it.
      const own = await get(`/v1/fintech/accounts/${id}`);
      assert.equal(own.status, 200, 'a read after the write was answered missed it');
      await own.arrayBuffer();
      const after = (await (await get('/v1/fintech/accounts')).json()) as { data: unknown[] };
      assert.equal(after.data.length, 2);
    } finally {
      reader.close();
      await stop();
    }
  });

  test("a read does not wait for the sync of the request log's batch; the request log shows an entry only once durable", {
    skip: straceSkip,
    timeout: 60_000,
  }, async () => {
    // The server's writes at start-up (the audit's signing key, made once it listens) are durable before strace
    // attaches: `GET /v1/audit/public_key` waits for the key, and its answer for every commit before it.
    const quiet = async (url: string, key: string) => {
      const made = await fetch(`${url}/v1/audit/public_key`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(made.status, 200, await made.text());
    };
    // Every fdatasync takes 5 s from now on; the request log writes its batch 10 ms after an entry.
    const env = { REQUEST_LOG_FLUSH_MS: '10' };
    const { server, key, stop } = await serverUnder('log', 'delay_enter=5000000', { env, quiet });
    const path = join(dir, 'log.db');
    const get = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
    /** Commits made durable so far (each observed once its sync finished). */
    const durableCommits = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(/^plinth_db_commit_duration_seconds_count (\d+)$/m.exec(text)![1]);
    };
    const reader = new DatabaseSync(path, { readOnly: true });
    try {
      const first = await get('/v1/fintech/accounts');
      assert.equal(first.status, 200);
      await first.arrayBuffer();
      const id = first.headers.get('request-id')!;
      // Its entry's batch is committed (another connection sees it) and now waits 5 s for its sync.
      const entry = reader.prepare('select id from request_logs where id = ?');
      while (entry.get(id) === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      const before = await durableCommits();
      const read = await get('/v1/fintech/accounts');
      assert.equal(read.status, 200);
      await read.arrayBuffer();
      // Before, the read waited for the batch's sync like every answer: it left only once the batch was durable.
      assert.equal(await durableCommits(), before, "the read waited for the request log batch's sync");
      // The log reads only durable entries: not this one yet, though it is committed.
      const early = await get(`/v1/requests/${id}`);
      // Before, it waited for the batch's sync and then showed the entry (200).
      assert.equal(early.status, 404, 'the request log did not answer at once, from durable entries only');
      await early.arrayBuffer();
      assert.equal(await durableCommits(), before, "the request log's answer waited for the batch's sync");
      // Once the batch is durable, the log shows the entry.
      let logged: Response;
      for (;;) {
        logged = await get(`/v1/requests/${id}`);
        if (logged.status !== 404) break;
        await logged.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(logged.status, 200);
      assert.equal(((await logged.json()) as { id: string }).id, id);
      assert.ok((await durableCommits()) > before, "the request log's answer left before the batch's sync finished");
    } finally {
      reader.close();
      await stop();
    }
  });

  test('under writes that never pause, the WAL still starts over: it stays bounded', async () => {
    const path = join(dir, 'bounded.db');
    const database = openDatabase(`sqlite:${path}`);
    try {
      await database.write((trx) => sql`create table filler (id integer primary key, body blob)`.execute(trx));
      const body = Buffer.alloc(3000, 7); // about one 4 KiB WAL frame per row
      let written = 0;
      const writer = async () => {
        while (written < WAL_LIMIT_FRAMES * 8) {
          written++;
          await database.write((trx) => sql`insert into filler (body) values (${body})`.execute(trx));
        }
      };
      await Promise.all(Array.from({ length: 64 }, writer));
      // Never restarted, the WAL would hold nearly every row (8 × the limit); restarted, it stays near the limit.
      const frames = statSync(`${path}-wal`).size / (4096 + 24);
      assert.ok(frames < WAL_LIMIT_FRAMES * 2.5, `the WAL grew to ${Math.round(frames)} frames`);
    } finally {
      await database.close();
    }
  });

  test("the checkpointer's thread loads none of the server's preloads: a TypeScript --import leaves it running", {
    timeout: 60_000,
  }, async () => {
    // An instrumentation agent is commonly preloaded with NODE_OPTIONS=--import; any TypeScript file makes the point,
    // as the thread would load Node's type stripper with it. Before, the thread inherited the preload, ran out of
    // its 8 MB heap at start, and the rejected wait for its exit took the server down (exit 1).
    const path = join(dir, 'preload.db');
    const url = `sqlite:${path}`;
    const made = await run(['src/cli/main.ts', 'keys', 'create', '--org', 'preload', '--mode', 'sandbox'], {
      DATABASE_URL: url,
    });
    assert.equal(made.code, 0, made.stderr);
    const preload = pathToFileURL(join(ROOT, 'src/platform/kit/time.ts')).href;
    const server = await spawnServer({ DATABASE_URL: url, NODE_OPTIONS: `--import ${preload}` });
    const died = server.exited.then(({ code, signal }) => `the server exited (${signal ?? code})`);
    try {
      const created = await fetch(`${server.url}/v1/fintech/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.stdout.trim()}`, 'content-type': 'application/json' },
        body: CREATE,
      });
      assert.equal(created.status, 200, await created.text());
      // The account reaches the database file itself (not only its WAL) once the thread has checkpointed.
      const checkpointed = (async () => {
        for (;;) {
          if (rowsInFileAlone(path, 'accounts') === 1) return 'checkpointed';
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      assert.equal(await Promise.race([checkpointed, died]), 'checkpointed');
      assert.equal(server.child.exitCode, null);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  test('the power-loss control switch (no WAL sync) is refused outside a test', async () => {
    const url = `sqlite:${join(dir, 'unsafe.db')}`;
    const refused = await spawnServer({ DATABASE_URL: url, PLINTH_TEST_UNSAFE_NO_WAL_SYNC: '1' }).then(
      async (server) => {
        server.child.kill('SIGTERM');
        await server.exited;
        return 'it started';
      },
      (error: Error) => error.message,
    );
    assert.match(refused, /PLINTH_TEST_UNSAFE_NO_WAL_SYNC is a test-only setting that loses acknowledged writes/);
    const server = await spawnServer({
      DATABASE_URL: url,
      PLINTH_TEST_UNSAFE_NO_WAL_SYNC: '1',
      PLINTH_TEST_ONLY_SETTINGS: '1',
    });
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);
  });
});
