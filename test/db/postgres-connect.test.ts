import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';

// A PostgreSQL that accepts connections and never answers (a hung server, a black-holed network): the connect
// timeout must end the attempt with an error the API answers as 503, not as a 500. The pool's wait for a free
// connection has a longer bound of its own (src/db/database.ts), so this is the connect timeout speaking.
test('a database that accepts and never answers: the query fails as "unavailable" (503)', async () => {
  const sockets: Socket[] = [];
  const hole = createServer((s) => sockets.push(s)).listen(0, '127.0.0.1');
  await new Promise((resolve) => hole.once('listening', resolve));
  const { port } = hole.address() as { port: number };
  const database = openDatabase(`postgres://plinth:x@127.0.0.1:${port}/none`);
  try {
    const error = await database.db
      .selectFrom('orgs')
      .selectAll()
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(error instanceof Error, 'the query cannot succeed');
    assert.ok(isDatabaseUnavailable(error), `not taken for an outage: ${error.message}`);
  } finally {
    await database.close().catch(() => undefined);
    for (const s of sockets) s.destroy();
    hole.close();
  }
});
