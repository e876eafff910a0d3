import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type Account,
  createPlinthClient,
  type Problem,
  type Transaction,
  type Transfer,
} from '../../clients/typescript/index.ts';
import { run } from '../helpers/process.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

describe('the generated TypeScript client', () => {
  let server: TestServer;
  let client: ReturnType<typeof createPlinthClient>;
  before(async () => {
    server = await startServer();
    client = createPlinthClient({ baseUrl: server.url, apiKey: await server.key('acme') });
  });
  after(() => server.close());

  test('clients/typescript/schema.ts is exactly what openapi-typescript makes of the committed document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-client-'));
    try {
      const out = join(dir, 'schema.ts');
      const result = await run(['node_modules/openapi-typescript/bin/cli.js', 'openapi/openapi.json', '-o', out], {
        REDOCLY_TELEMETRY: 'off',
        NO_COLOR: '1',
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        readFileSync(out, 'utf8'),
        readFileSync(new URL('../../clients/typescript/schema.ts', import.meta.url), 'utf8'),
        'run `npm run openapi`',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('creates, retrieves and lists accounts', async () => {
    const created = await client.POST('/v1/fintech/accounts', {
      body: { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: 'Acme Corp' } },
    });
    assert.equal(created.response.status, 200);
    const account: Account = created.data!;
    assert.equal(account.status, 'active');
    assert.equal(account.available_balance.amount, 0);
    assert.equal(account.kyb?.ein_last4, '6789');

    const retrieved = await client.GET('/v1/fintech/accounts/{id}', { params: { path: { id: account.id } } });
    assert.deepEqual(retrieved.data, account);

    const listed = await client.GET('/v1/fintech/accounts', { params: { query: { limit: 1 } } });
    assert.equal(listed.data?.object, 'list');
    assert.deepEqual(
      listed.data?.data.map((a) => a.id),
      [account.id],
    );
  });

  test('moves money: a sandbox deposit, a transfer, the transactions', async () => {
    const open = async () =>
      (await client.POST('/v1/fintech/accounts', { body: { type: 'business', country: 'US' } })).data!.id;
    const [from, to] = [await open(), await open()];
    const deposit = await client.POST('/v1/sandbox/fintech/accounts/{id}/deposits', {
      params: { path: { id: from } },
      body: { amount: 10_000 },
    });
    assert.equal(deposit.data?.balance_after, 10_000);
    const transfer: Transfer = (
      await client.POST('/v1/fintech/transfers', {
        body: { from_account_id: from, to_account_id: to, amount: 2500, currency: 'USD' },
      })
    ).data!;
    assert.equal(transfer.status, 'posted');
    const listed = await client.GET('/v1/fintech/accounts/{id}/transactions', { params: { path: { id: from } } });
    const transactions: Transaction[] = listed.data!.data;
    assert.deepEqual(
      transactions.map((t) => [t.amount, t.balance_after, t.source.type]),
      [
        [-2500, 7500, 'transfer'],
        [10_000, 10_000, 'sandbox_deposit'],
      ],
    );
    const refused = await client.POST('/v1/fintech/transfers', {
      body: { from_account_id: from, to_account_id: to, amount: 7501, currency: 'USD' },
    });
    assert.equal(refused.error?.code, 'insufficient_funds');
    assert.equal(refused.error?.param, 'from_account_id');
  });

  test('a failed call gives a typed problem body', async () => {
    const failed = await client.POST('/v1/fintech/accounts', { body: { type: 'business', country: 'BR' } });
    assert.equal(failed.data, undefined);
    const problem: Problem = failed.error!;
    assert.equal(failed.response.status, 400);
    assert.equal(problem.code, 'country_unsupported');
    assert.equal(problem.param, 'country');
    assert.equal(problem.request_id, failed.response.headers.get('request-id'));

    const missing = await client.GET('/v1/fintech/accounts/{id}', {
      params: { path: { id: 'acct_01ZZZZZZZZZZZZZZZZZZZZZZZZ' } },
    });
    assert.equal(missing.error?.code, 'resource_not_found');
  });
});
