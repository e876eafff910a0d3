import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { retryDelayMs } from '../../src/supervisor.ts';
import { freshDatabase, MULTI_PROCESS_SKIP } from '../helpers/database.ts';
import { run } from '../helpers/process.ts';
import { UNLIMITED } from '../helpers/server.ts';

// A replacement that cannot start while another worker serves: supervisor-outage.test.ts (issue 22).
describe('the cluster supervisor (WEB_CONCURRENCY > 1)', { skip: MULTI_PROCESS_SKIP }, () => {
  test('when no worker can start at all, it gives up after five failures in a row, with one line', async () => {
    // A port already taken: every worker fails before it listens, as a bad deployment would, again and again.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    const db = await freshDatabase();
    try {
      const startedAt = Date.now();
      const result = await run(['src/server.ts'], {
        ...UNLIMITED,
        DATABASE_URL: db.url,
        PORT: port,
        WEB_CONCURRENCY: '2',
      });
      assert.equal(result.code, 1);
      const lines = result.stderr.trimEnd().split('\n');
      // The workers' own errors reach stderr only through the supervisor's lines: no stack trace, nothing else.
      for (const line of lines) assert.match(line, /^plinth: /, result.stderr);
      assert.match(lines[0]!, /^plinth: worker \d+ failed at start-up \(bind EADDRINUSE [^)]+\); 1 in a row; next/);
      assert.match(lines[0]!, /next try in 250 ms$/);
      // At most one line about failing start-ups per 30 s: one here, unless the machine made this take longer.
      const failureLines = lines.filter((l) => l.includes('failed at start-up ('));
      assert.ok(failureLines.length <= 1 + Math.floor((Date.now() - startedAt) / 30_000), result.stderr);
      // The database answers, so the failure is the deployment's own: five in a row and it gives up.
      const last = lines.at(-1)!;
      assert.match(last, /^plinth: workers failed at start-up 5 times in a row with the database answering, /);
      assert.match(last, /, and none serves \(last: bind EADDRINUSE .+\); giving up$/);
    } finally {
      taken.close();
      await db.drop();
    }
  });

  test('a bad setting stops it before it forks: exit code 2 and one line', async () => {
    const db = await freshDatabase();
    try {
      const result = await run(['src/server.ts'], { DATABASE_URL: db.url, WEB_CONCURRENCY: '2', PORT: 'eighty' });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(
        result.stderr,
        'plinth: bad configuration: PORT: must be a whole number from 0 to 65535, got "eighty"\n',
      );
    } finally {
      await db.drop();
    }
  });
});

test('start-up retries wait 250 ms, doubling, capped at 30 s', () => {
  const expected = [250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
  assert.deepEqual(
    expected.map((_, i) => retryDelayMs(i + 1)),
    expected,
  );
  assert.equal(retryDelayMs(1000), 30_000, 'no overflow after a long outage');
});
