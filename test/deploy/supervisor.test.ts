import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { freshDatabase, MULTI_PROCESS_SKIP } from '../helpers/database.ts';
import { run } from '../helpers/process.ts';
import { UNLIMITED } from '../helpers/server.ts';

describe('the cluster supervisor (WEB_CONCURRENCY > 1)', { skip: MULTI_PROCESS_SKIP }, () => {
  test('workers that keep failing at start-up are retried with a growing delay, then it gives up with one line', async () => {
    // A port already taken: every worker fails before it listens, as a bad deployment would, again and again.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    const db = await freshDatabase();
    try {
      const result = await run(['src/server.ts'], {
        ...UNLIMITED,
        DATABASE_URL: db.url,
        PORT: port,
        WEB_CONCURRENCY: '2',
      });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /failed at start-up \(code 1\); retrying in 250 ms/);
      assert.match(result.stderr, /retrying in 500 ms/);
      assert.match(result.stderr, /plinth: workers failed at start-up 5 times in a row \(last: code 1\); giving up\n/);
    } finally {
      taken.close();
      await db.drop();
    }
  });
});
