import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currencyOf } from '../../../src/products/fintech/countries.ts';

test("a country's currency is looked up once, and only a country's own entry counts", () => {
  assert.deepEqual(currencyOf('US'), { code: 'USD', exponent: 2 });
  assert.deepEqual(currencyOf('JP'), { code: 'JPY', exponent: 0 });
  // The same answer every time, not a new lookup (a linear scan of ISO 4217 with a new closure) per account created.
  assert.equal(currencyOf('US'), currencyOf('US'));
  assert.ok(Object.isFrozen(currencyOf('US')));
  // Names an object inherits are no countries: null, as for an unknown code (it threw a TypeError before).
  for (const name of ['constructor', '__proto__', 'toString', 'ZZ']) assert.equal(currencyOf(name), null);
});
