/**
 * The README's route table ("The API") is the OpenAPI document's (scripts/docs/routes-table.ts), and the document is
 * the routes' own (test/openapi/document.test.ts keeps it so): a route added, removed or given another body field or
 * query parameter fails here until `npm run docs:routes` is run. The rows the old hand-written table lacked are
 * listed here by hand, so that a table that loses them fails however it was made.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { blockOf } from '../../scripts/docs/markers.ts';
import { END, MARKERS, README, readDocument, routesTable, START } from '../../scripts/docs/routes-table.ts';

const page = readFileSync(README, 'utf8');
const committed = blockOf(page, MARKERS);

test('the table in README.md is the one the OpenAPI document makes', () => {
  assert.ok(page.includes(START) && page.includes(END), 'README.md has the routes-table markers');
  assert.equal(committed, routesTable(readDocument()), 'README.md is stale: run npm run docs:routes');
});

test('it lists post, void, the updates, sandbox expiry, reversals, balances, statements and the filters', () => {
  const rows = [
    '`POST` | `/v1/fintech/transfers/{id}/post`',
    '`POST` | `/v1/fintech/transfers/{id}/void`',
    '`POST` | `/v1/fintech/accounts/{id}`',
    '`POST` | `/v1/fintech/transfers/{id}`',
    '`POST` | `/v1/webhook_endpoints/{id}`',
    '`POST` | `/v1/sandbox/fintech/transfers/{id}/expire`',
    '`POST` | `/v1/fintech/transfers/{id}/reversals`',
    '`GET` | `/v1/fintech/transfers/{id}/reversals/{reversal_id}`',
    '`GET` | `/v1/fintech/accounts/{id}/balances?at=`',
    '`GET` | `/v1/fintech/accounts/{id}/statement?from=&to=`',
  ];
  for (const row of rows) assert.ok(committed.includes(`| ${row} |`), `no row ${row}`);
  const transfers = committed.split('\n').find((r) => r.startsWith('| `GET` | `/v1/fintech/transfers?'));
  for (const filter of ['account_id=', 'status=', 'created[…]=', 'metadata[…]=']) {
    assert.ok(transfers?.includes(filter), `the transfers list lacks ${filter}`);
  }
  assert.match(committed, /\| `POST` \| `\/v1\/fintech\/transfers` \| .*`pending`\?.*`metadata`\?/);
});
