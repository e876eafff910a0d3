import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { apiTime, storedTime } from '../../../src/platform/kit/time.ts';

test('property: apiTime of a stored time is its UTC minute, as parsing it would give', () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
      (date) => {
        const stored = storedTime(date);
        return apiTime(stored) === `${new Date(stored).toISOString().slice(0, 16)}Z`;
      },
    ),
  );
});

test('a time stored in another shape (a database default, an offset) is parsed, not sliced', () => {
  assert.equal(apiTime('2026-11-22 13:19:40'), `${new Date('2026-11-22 13:19:40').toISOString().slice(0, 16)}Z`);
  assert.equal(apiTime('2026-11-22T23:30:00.000+02:00'), '2026-11-22T21:30Z');
});
