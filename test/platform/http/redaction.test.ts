import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { generateKey } from '../../../src/platform/auth/key-format.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { call, useServer } from '../../helpers/server.ts';

const EIN = '27-1234567';
const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/+9hY=';

/** Every %XX decoded, three times over (a doubly encoded key is as readable as a plain one to whoever reads it). */
function decoded(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++)
    out = out.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return out;
}

/** Each character as %XX, with upper- or lower-case hex. */
const percent = (text: string, lower = false) =>
  [...text]
    .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')[lower ? 'toLowerCase' : 'toUpperCase']()}`)
    .join('');

describe('key-shaped and EIN-shaped values never reach a log line or an error detail (docs/api.md#authentication-and-modes)', () => {
  const server = useServer();
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  /** Neither the reply nor any log line written so far shows one of `secrets`, plainly or percent-encoded. */
  function assertNowhere(reply: { text: string }, secrets: string[]): void {
    for (const secret of secrets) {
      assert.ok(!decoded(reply.text).includes(secret), `the reply shows ${secret}: ${reply.text}`);
      const leaks = server.logs.filter((l) => decoded(l).includes(secret));
      assert.deepEqual(leaks, [], `a log line shows ${secret}`);
    }
  }

  test('a key in a path segment (revoking the secret instead of its id)', async () => {
    const reply = await call(server.url, 'POST', `/v1/api_keys/${key}/revoke`, { key });
    assertProblem(reply, 'resource_not_found');
    assert.equal(reply.body.detail, 'No such API key with this id.', 'a value not shaped like an id is not echoed');
    assertNowhere(reply, [key, key.slice(8)]);
  });

  test('an EIN, a live key and a webhook secret in paths', async () => {
    const live = generateKey('live');
    for (const path of [`/v1/fintech/accounts/${EIN}`, `/v1/fintech/accounts/${live}`, `/v1/${WHSEC}`]) {
      const reply = await call(server.url, 'GET', path, { key });
      assert.equal(reply.status, 404);
      assertNowhere(reply, [EIN, live, live.slice(8), WHSEC.slice(6, 20)]);
    }
  });

  test('in a query string, a header and a body value', async () => {
    const other = generateKey('sandbox');
    const replies = [
      await call(server.url, 'GET', `/v1/fintech/accounts?starting_after=${other}`, { key }),
      await call(server.url, 'GET', `/v1/fintech/accounts?limit=${EIN}`, { key }),
      await call(server.url, 'GET', '/v1/fintech/accounts', { headers: { authorization: `Basic ${other}` } }),
      await call(server.url, 'POST', '/v1/fintech/accounts', {
        key,
        headers: { 'idempotency-key': other },
        json: { type: 'business', country: other },
      }),
      await call(server.url, 'POST', '/v1/fintech/accounts', { key, json: { type: EIN, country: 'US' } }),
    ];
    for (const reply of replies) {
      assert.equal(reply.status >= 400 && reply.status < 500, true, reply.text);
      assertNowhere(reply, [other, other.slice(8), EIN]);
    }
  });

  test('keys in disguise: a pasted space or quote, encoded letters, no word boundary, any case (issue 23, 2)', async () => {
    const live = generateKey('live');
    const body = live.slice(8);
    const whsec = encodeURIComponent(WHSEC);
    const paths = [
      `/v1/fintech/accounts/%20${live}`,
      `/v1/fintech/accounts/%22${live}%22`,
      `/v1/fintech/accounts/%73k_live_${body}`,
      `/v1/fintech/accounts/sk%5Flive%5F${body}`,
      `/v1/fintech/accounts/x${live}`,
      `/v1/fintech/accounts/acct_${live}`,
      `/v1/fintech/accounts?x${live}=1`,
      `/v1/fintech/accounts?starting_after=x${live}`,
      `/v1/${percent(live)}`,
      `/v1/fintech/accounts/${percent(live.slice(0, 8), true)}${body}`,
      `/v1/fintech/accounts/%2573k_live_${body}`,
      `/v1/fintech/accounts/SK_LIVE_${body}`,
      `/v1/api_keys/xx${live}/revoke`,
      `/v1/fintech/accounts/x${whsec}`,
      `/v1/fintech/accounts/${percent('whsec_')}${whsec.slice(6)}`,
    ];
    for (const path of paths) {
      const reply = await call(server.url, path.includes('revoke') ? 'POST' : 'GET', path, { key });
      assert.ok(reply.status === 404 || reply.status === 400, `${path}: ${reply.text}`);
      assertNowhere(reply, [body.slice(0, -4), WHSEC.slice(6, -4)]);
    }
  });

  test('an EIN without its dash is redacted like one with it, plain or encoded (issue 23, 2)', async () => {
    for (const path of [
      '/v1/fintech/accounts/271234567',
      '/v1/fintech/accounts/acct_271234567',
      '/v1/fintech/accounts/%20271234567',
      '/v1/fintech/accounts?limit=271234567',
      '/v1/fintech/accounts?starting_after=%32%37%2D%31%32%33%34%35%36%37',
    ]) {
      const reply = await call(server.url, 'GET', path, { key });
      assert.ok(reply.status === 404 || reply.status === 400, `${path}: ${reply.text}`);
      assertNowhere(reply, ['271234567', '27-1234567']);
    }
  });

  test('property: a key anywhere in a path or query, in any percent-encoding, never reaches a reply or a log line', async () => {
    const unreserved = fc.constantFrom(...'abcXYZ019-_.~'.split(''), '%20', '%22', '%2F', '%25', '%3D', '%E2%80%8B');
    const around = fc.array(unreserved, { maxLength: 6 }).map((parts) => parts.join(''));
    const secret = fc.oneof(
      fc.constantFrom<'sandbox' | 'live'>('sandbox', 'live').map((mode) => generateKey(mode)),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`),
    );
    const spelling = fc.array(fc.constantFrom('plain', 'upper', 'lower', 'double'), { minLength: 60, maxLength: 60 });
    const place = fc.constantFrom(
      (x: string) => ['GET', `/v1/fintech/accounts/${x}`],
      (x: string) => ['POST', `/v1/api_keys/${x}/revoke`],
      (x: string) => ['GET', `/v1/nowhere/${x}`],
      (x: string) => ['GET', `/v1/fintech/accounts?starting_after=${x}`],
      (x: string) => ['GET', `/v1/fintech/accounts?${x}=1`],
      (x: string) => ['DELETE', `/v1/webhook_endpoints/${x}`],
    );
    await fc.assert(
      fc.asyncProperty(secret, spelling, around, around, place, async (plain, how, before, after, where) => {
        // Characters a URL cannot carry as they are are always encoded; any other may be.
        const spelt = [...plain]
          .map((c, i) => {
            const mode = /[A-Za-z0-9_-]/.test(c) ? how[i] : how[i] === 'plain' ? 'upper' : how[i];
            if (mode === 'plain') return c;
            const encoded = percent(c, mode === 'lower');
            return mode === 'double' ? encoded.replace('%', '%25') : encoded;
          })
          .join('');
        const [method, path] = where(`${before}${spelt}${after}`) as [string, string];
        const reply = await call(server.url, method, path, { key });
        assert.ok(reply.status >= 400 && reply.status < 500, `${path}: ${reply.text}`);
        const core = plain.slice(plain.indexOf('_', 3) + 1, -4);
        assertNowhere(reply, [core]);
      }),
      { numRuns: 120 },
    );
  });

  test('nine-digit amounts in a detail the server wrote read as themselves, not as EINs', async () => {
    const bank = money(server.url, key);
    const [from, to] = [await bank.account(), await bank.account()];
    await bank.deposit(from, 123456789);
    const transfer = { from_account_id: from, to_account_id: to, currency: 'USD' };
    const short = await call(server.url, 'POST', '/v1/fintech/transfers', {
      key,
      json: { ...transfer, amount: 200000000 },
    });
    assertProblem(short, 'insufficient_funds', 'from_account_id');
    assert.match(short.body.detail, /has 123456789 USD \(minor units\) available; 200000000 were asked for\.$/);
    const held = await call(server.url, 'POST', '/v1/fintech/transfers', {
      key,
      json: { ...transfer, amount: 123456789, pending: true },
    });
    assert.equal(held.status, 200, held.text);
    const over = await call(server.url, 'POST', `/v1/fintech/transfers/${held.body.id}/post`, {
      key,
      json: { amount: 123456790 },
    });
    assertProblem(over, 'parameter_invalid', 'amount');
    assert.match(over.body.detail, /^amount must be 1 to 123456789, /);
  });

  test('a log line’s message is redacted as its fields are (issue 23, 2)', () => {
    const live = generateKey('live');
    server.app.log.warn({ note: `x${live}` }, `message with %73k_live_${live.slice(8)} and 271234567`);
    const line = server.logs.at(-1)!;
    assert.match(line, /message with/);
    assertNowhere({ text: '' }, [live.slice(8, -4), '271234567']);
  });
});
