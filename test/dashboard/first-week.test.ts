/**
 * Issue 40's pure parts of the dashboard (docs/dashboard.md): relative times of a time the API gives to the minute,
 * a refusal's minor units said in a form's major unit, and the key form's rule that a ticked permission means a
 * restricted key.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { relative, time } from '../../src/dashboard/format.ts';
import { permissionsField } from '../../src/dashboard/pages/key-permissions.ts';
import { inFormUnit, inMajorUnits, typedIn } from '../../src/dashboard/units.ts';
import { PERMISSION_GROUPS } from '../../src/platform/auth/permissions.ts';
import { ApiError } from '../../src/platform/http/errors.ts';

// Before: counted from the start of the minute, a 3-second-old account (made at 10:04:55, seen at 10:04:58, shown by
// the API as 10:04) read "58 seconds ago".
test('a time given to the minute is counted in whole minutes, never in seconds from the minute’s start', () => {
  const now = new Date('2026-11-25T10:04:58.000Z');
  assert.equal(relative(new Date('2026-11-25T10:04Z'), now, 'minute'), 'this minute');
  assert.match(time('2026-11-25T10:04Z', now).text, /<span class="hint">this minute<\/span>/);
  assert.match(time('2026-11-25T10:04Z', now).text, /datetime="2026-11-25T10:04Z"/);
  assert.match(time('2026-11-25T10:04Z', new Date('2026-11-25T10:05:01Z')).text, /1 minute ago/);
  assert.match(time('2026-11-25T09:04Z', now).text, /1 hour ago/);
  assert.match(time('2026-11-25T10:09Z', now).text, /in 5 minutes/);
  // A time with its seconds is counted from that instant, as before.
  assert.equal(relative(new Date('2026-11-25T10:04:55Z'), now), 'just now');
  assert.equal(relative(new Date('2026-11-25T10:02:58Z'), now), '2 minutes ago');
});

// Before: a reversal of 999.99 in a form that takes dollars was refused with "amount must be 1 to 35000, …".
test('a refusal of a form that typed an amount is said in that form’s major unit', () => {
  const fields = new URLSearchParams({ amount: '999.99' });
  typedIn(fields, 'USD');
  const refused = new ApiError('parameter_invalid', 'amount must be 1 to 35000, what remains of transfer tr_1.', {
    param: 'amount',
    errors: [{ code: 'parameter_invalid', param: 'amount', detail: 'amount must be at least 1.' }],
  });
  const shown = inFormUnit(refused, fields);
  assert.equal(shown.message, 'amount must be 0.01 USD to 350.00 USD, what remains of transfer tr_1.');
  assert.equal(shown.errors?.[0]?.detail, 'amount must be at least 0.01 USD.');
  assert.equal(shown.status, 400);
  assert.equal(shown.param, 'amount');
  // Amounts the API marks as minor units are said in the major unit whatever the form; JPY has no decimals.
  assert.equal(
    inMajorUnits('to_account_id acct_1 has 500 USD (minor units) available; 99999 were asked for.', 'USD'),
    'to_account_id acct_1 has 5.00 USD available; 999.99 USD were asked for.',
  );
  assert.equal(
    inMajorUnits('Account acct_1 holds 700 JPY (minor units); …', undefined),
    'Account acct_1 holds 700 JPY; …',
  );
  // A form that typed no amount leaves other numbers alone.
  assert.equal(inMajorUnits('amount must be 1 to 35000.', undefined), 'amount must be 1 to 35000.');
});

// Before: Access left on "Full access" with transactions: read ticked made a full sk_ key.
test('any permission ticked makes the key restricted, whatever the Access choice', () => {
  const ticked = new URLSearchParams({
    access: 'full',
    'permissions.transactions': 'read',
    'permissions.accounts': 'none',
  });
  const made = permissionsField(ticked);
  assert.deepEqual(made, Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, g === 'transactions' ? 'read' : 'none'])));
  assert.equal(permissionsField(new URLSearchParams({ access: 'full', 'permissions.accounts': 'none' })), undefined);
  const none = permissionsField(new URLSearchParams({ access: 'restricted' }));
  assert.ok(none !== undefined && Object.values(none).every((level) => level === 'none'), 'restricted, with nothing');
});
