/**
 * What a create and a transfer with an Idempotency-Key cost PostgreSQL: the round trips their write waits for and the
 * statements it sends (docs/internals.md, "PostgreSQL"), as the database reports each write (`plinth_db_round_trips`
 * and `plinth_db_statements` on /metrics). The idempotency key's lock, its stored answer's look-up and the sandbox
 * clock's read share the first round trip. PostgreSQL only: SQLite has no round trips.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { CommitStats } from '../../../src/db/database.ts';
import { BACKEND } from '../../helpers/database.ts';
import { call, useServer } from '../../helpers/server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('round trips and statements of a write on PostgreSQL', {
  skip: BACKEND === 'postgres' ? false : 'PostgreSQL only',
}, () => {
  const server = useServer();

  /** The request's own write: of the writes that commit while it runs and just after, the one with most statements. */
  async function writeOf(send: () => Promise<void>): Promise<CommitStats> {
    const commits: CommitStats[] = [];
    let listening = true;
    server.database.onCommit((stats) => {
      if (listening) commits.push(stats);
    });
    await send();
    await sleep(300); // the event sequencer's pass and the request log's batch: fewer statements than the request's
    listening = false;
    return commits.reduce((a, b) => ((b.statements ?? 0) > (a.statements ?? 0) ? b : a));
  }

  test('a create: 2 round trips (the key and the clock, then the COMMIT); a transfer: 3', async () => {
    const key = await server.key('trips');
    const post = async (path: string, json: object) => {
      const reply = await call(server.url, 'POST', path, { key, json, headers: { 'idempotency-key': randomUUID() } });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body as { id: string };
    };
    const account = { type: 'business', country: 'US' };
    const [from, to] = [await post('/v1/fintech/accounts', account), await post('/v1/fintech/accounts', account)];
    await post(`/v1/sandbox/fintech/accounts/${from.id}/deposits`, { amount: 1000 });

    const create = await writeOf(async () => void (await post('/v1/fintech/accounts', account)));
    // Before: 3 (the clock's read waited for the key's look-up).
    assert.deepEqual(
      { roundTrips: create.roundTrips, statements: create.statements },
      { roundTrips: 2, statements: 10 },
    );

    const transfer = await writeOf(
      async () =>
        void (await post('/v1/fintech/transfers', {
          from_account_id: from.id,
          to_account_id: to.id,
          amount: 1,
          currency: 'USD',
        })),
    );
    // Before: 4 round trips, 15 statements (the sides' lock and their read were two statements).
    assert.deepEqual(
      { roundTrips: transfer.roundTrips, statements: transfer.statements },
      { roundTrips: 3, statements: 14 },
    );
  });
});
