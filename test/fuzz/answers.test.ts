import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, startServer, type TestServer } from '../helpers/server.ts';
import {
  type Answers,
  answersByOperation,
  answersTable,
  fuzzingGaps,
  refusalsTable,
  restrictedGaps,
} from './answers.ts';

// The checks scripts/fuzz.ts makes of a run (issue 23, finding 8), fed with a real server's log: a fuzzing key
// revoked midway must show as operations that got only 401 from then on, not as a run that passed.

const OPERATIONS = ['GET /v1/fintech/accounts', 'POST /v1/fintech/accounts', 'GET /v1/api_keys', 'GET /healthz'];

describe('the fuzz run checks its own answers (scripts/fuzz.ts)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  /** Requests to every operation with `key`, and the log lines they wrote. */
  async function phase(key: string): Promise<Map<string, Answers>> {
    const from = server.logs.length;
    await call(server.url, 'GET', '/v1/fintech/accounts', { key });
    await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } });
    await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'ZZ' } });
    await call(server.url, 'GET', '/v1/api_keys'); // no key: 401, as the fuzzer's auth checks send
    await call(server.url, 'GET', '/v1/api_keys', { key });
    await call(server.url, 'GET', '/healthz');
    return answersByOperation(server.logs.slice(from));
  }

  test('a key revoked between two phases: every operation of the later phase got only 401, and the run fails', async () => {
    const key = await server.key('fuzz-org');
    const spare = await server.key('fuzz-org'); // the org's last active key cannot be revoked
    const first = await phase(key);
    assert.deepEqual(fuzzingGaps(OPERATIONS, new Map([['examples', first]])), [], 'a healthy phase has no gap');
    assert.deepEqual(first.get('POST /v1/fintech/accounts'), { total: 2, succeeded: 1, refused: 0 });
    assert.deepEqual(first.get('GET /v1/api_keys'), { total: 2, succeeded: 1, refused: 1 });

    const keys = await call(server.url, 'GET', '/v1/api_keys', { key: spare });
    const id = keys.body.data.find((k: { hint: string }) => key.endsWith(k.hint.slice(-4)))!.id;
    assert.equal((await call(server.url, 'POST', `/v1/api_keys/${id}/revoke`, { key: spare })).status, 200);
    const second = await phase(key);

    const gaps = fuzzingGaps(
      OPERATIONS,
      new Map([
        ['examples', first],
        ['coverage', second],
      ]),
    );
    assert.deepEqual(gaps, [
      'GET /v1/fintech/accounts: only 401/403 in the coverage phase (1 requests)',
      'POST /v1/fintech/accounts: only 401/403 in the coverage phase (2 requests)',
      'GET /v1/api_keys: only 401/403 in the coverage phase (2 requests)',
    ]);
    // Over the whole run each of them also had answers from before: counting the run as one would miss it.
    const whole = answersByOperation(server.logs);
    assert.ok(OPERATIONS.every((o) => whole.get(o)!.refused < whole.get(o)!.total));
  });

  test('an operation never reached is a gap; the harness leaves its own requests out by their Request-Id', async () => {
    const from = server.logs.length;
    const own = await call(server.url, 'GET', '/healthz');
    const answers = answersByOperation(server.logs.slice(from), new Set([own.headers.get('request-id')!]));
    assert.equal(answers.size, 0);
    assert.deepEqual(fuzzingGaps(['GET /healthz'], new Map([['examples', answers]])), ['GET /healthz: never reached']);
  });

  test('the table names each operation with its total, 2xx and 401/403 answers', () => {
    const table = answersTable(new Map([['GET /v1/events', { total: 12, succeeded: 7, refused: 2 }]]));
    assert.match(table, /total +2xx +401\/403 +operation/);
    assert.match(table, /12 +7 +2 +GET \/v1\/events$/);
    const refusals = refusalsTable('GET /v1/events: a cursor rule\nPOST /x: a rule\nGET /v1/events: a cursor rule\n');
    assert.match(refusals, /\n# +2 +GET \/v1\/events: a cursor rule\n# +1 +POST \/x: a rule\n/);
  });
});

test('a restricted key run: 2xx where allowed, only 401/403 with a permission_denied elsewhere (scripts/fuzz.ts)', () => {
  const allowed = new Map([
    ['GET /v1/fintech/accounts', true],
    ['POST /v1/fintech/transfers', false],
  ]);
  const healthy = new Map<string, Answers>([
    ['GET /v1/fintech/accounts', { total: 5, succeeded: 2, refused: 1 }],
    ['POST /v1/fintech/transfers', { total: 4, succeeded: 0, refused: 4 }],
  ]);
  assert.deepEqual(restrictedGaps(allowed, healthy, new Set(['POST /v1/fintech/transfers'])), []);
  // The check let a forbidden operation through once, and refused an allowed one for its permission.
  const broken = new Map<string, Answers>([
    ['GET /v1/fintech/accounts', { total: 5, succeeded: 0, refused: 5 }],
    ['POST /v1/fintech/transfers', { total: 4, succeeded: 1, refused: 3 }],
  ]);
  assert.deepEqual(restrictedGaps(allowed, broken, new Set(['GET /v1/fintech/accounts'])), [
    'GET /v1/fintech/accounts: its key may call it, but it never answered 2xx',
    'GET /v1/fintech/accounts: its key may call it, but it answered permission_denied',
    'POST /v1/fintech/transfers: its key may not call it, but 1 answers were not 401/403',
    'POST /v1/fintech/transfers: its key may not call it, and no 403 permission_denied',
  ]);
});
