import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const ACCOUNTS = '/v1/fintech/accounts';
// Ajv's own phrasings, which tell a person what is wrong in the validator's terms and not what to send.
const RAW_AJV =
  /must NOT have|must be (string|integer|number|object|boolean|array|null|equal)\b|must match pattern|must match format|must have required|must be >=|must be <=|is invalid\.$/;

describe('every validation message says what to send instead (issue 11, finding 6)', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  const cases: Array<[string, string, unknown, string, RegExp]> = [
    ['POST', ACCOUNTS, { type: 'business', country: 12 }, 'country', /country must be a string, such as "US"/],
    ['POST', ACCOUNTS, { type: 7, country: 'US' }, 'type', /type must be one of: business/],
    [
      'POST',
      ACCOUNTS,
      { type: 'business', country: 'US', kyb: { ein: '12-3456789', legal_name: '' } },
      'kyb.legal_name',
      /kyb.legal_name must be 1–200 characters after trimming/,
    ],
    ['POST', ACCOUNTS, { type: 'business', country: 'US', kyb: 'Acme' }, 'kyb', /kyb must be a JSON object or null/],
    [
      'POST',
      ACCOUNTS,
      { type: 'business', country: 'US', kyb: { ein: 123, legal_name: 'A' } },
      'kyb.ein',
      /kyb.ein must be a string, such as "12-3456789"/,
    ],
    ['POST', '/v1/api_keys', { name: 7 }, 'name', /name must be a string/],
    ['POST', '/v1/api_keys', { mode: 'prod' }, 'mode', /mode must be one of: sandbox, live/],
    ['GET', `${ACCOUNTS}?limit=0`, undefined, 'limit', /limit must be at least 1/],
    ['GET', `${ACCOUNTS}?limit=500`, undefined, 'limit', /limit must be at most 100/],
  ];
  for (const [method, path, json, param, message] of cases) {
    test(`${method} ${path} ${JSON.stringify(json) ?? ''} → ${param}: says what to send`, async () => {
      const reply = await call(server.url, method, path, { key, json });
      assertProblem(reply, 'parameter_invalid', param);
      assert.match(reply.body.detail, message);
      for (const item of reply.body.errors) assert.doesNotMatch(item.detail, RAW_AJV, item.detail);
    });
  }
});
