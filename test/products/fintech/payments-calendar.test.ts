/**
 * When the rails act in the sandbox (docs/api.md#bank-account-numbers-and-payments), in New York time: the ACH
 * cut-off (16:00 on a business day), ACH settlement (09:00 the next business day), a wire in banking hours (09:00–18:00)
 * or at 09:00 next; across weekends and both daylight-saving changes (EST is UTC−5, EDT UTC−4).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  achSettlement,
  nextAchCutoff,
  nextBusinessMorning,
  wireSettlement,
} from '../../../src/products/fintech/payments.calendar.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

const CASES: [string, (ms: number) => number, string, string][] = [
  ['cut-off, a Friday morning: that afternoon', nextAchCutoff, '2026-11-27T15:00:00Z', '2026-11-27T21:00:00.000Z'],
  ['cut-off, at 16:00 exactly: then', nextAchCutoff, '2026-11-27T21:00:00Z', '2026-11-27T21:00:00.000Z'],
  ['cut-off, a Friday evening: Monday', nextAchCutoff, '2026-11-27T22:00:00Z', '2026-11-30T21:00:00.000Z'],
  [
    'cut-off, the Friday before DST starts: Monday in EDT',
    nextAchCutoff,
    '2026-03-06T22:00:00Z',
    '2026-03-09T20:00:00.000Z',
  ],
  ['cut-off, the night DST ends: Monday in EST', nextAchCutoff, '2026-11-01T05:30:00Z', '2026-11-02T21:00:00.000Z'],
  [
    'ACH settles the next business day at 09:00 (EST)',
    achSettlement,
    '2026-11-27T21:00:00Z',
    '2026-11-30T14:00:00.000Z',
  ],
  [
    'ACH settles the next business day at 09:00 (EDT)',
    achSettlement,
    '2026-07-02T20:00:00Z',
    '2026-07-03T13:00:00.000Z',
  ],
  ['a wire on a Saturday: Monday 09:00', wireSettlement, '2026-11-28T15:00:00Z', '2026-11-30T14:00:00.000Z'],
  ['a wire at 08:59: 09:00', wireSettlement, '2026-11-30T13:59:00Z', '2026-11-30T14:00:00.000Z'],
  ['a wire at 09:00: at once', wireSettlement, '2026-11-30T14:00:00Z', '2026-11-30T14:00:00.000Z'],
  ['a wire at 18:00: the next morning', wireSettlement, '2026-11-30T23:00:00Z', '2026-12-01T14:00:00.000Z'],
  ['the next business morning from a Friday', nextBusinessMorning, '2026-11-27T15:00:00Z', '2026-11-30T14:00:00.000Z'],
];

for (const [name, when, from, expected] of CASES)
  test(name, () => {
    assert.equal(iso(when(at(from))), expected);
  });

test('every hour of a year: the cut-off is 16:00 New York on a weekday, never earlier than asked, within 4 days', () => {
  const zone = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    hour: '2-digit',
    weekday: 'short',
  });
  for (let t = at('2026-01-01T00:30:00Z'); t < at('2027-01-01T00:00:00Z'); t += 3_600_000) {
    const cutoff = nextAchCutoff(t);
    const parts = Object.fromEntries(zone.formatToParts(new Date(cutoff)).map((p) => [p.type, p.value]));
    assert.equal(parts.hour, '16', iso(t));
    assert.ok(!['Sat', 'Sun'].includes(parts.weekday!), iso(t));
    assert.ok(cutoff >= t && cutoff - t <= 4 * 86_400_000, iso(t));
  }
});
