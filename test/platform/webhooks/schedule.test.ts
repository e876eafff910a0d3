import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { nextDelay, parseSchedule, retryAfterMs } from '../../../src/modules/webhooks/engine/schedule.ts';
import { signature } from '../../../src/modules/webhooks/engine/sign.ts';
import { signingSecrets } from '../../../src/modules/webhooks/engine/signing-secrets.ts';
import { createSecretBox } from '../../../src/platform/secrets/box.ts';

describe('the retry schedule, Retry-After, signing and sealing', () => {
  test('WEBHOOK_RETRY_SCHEDULE: the default, units, and one-line errors', () => {
    assert.deepEqual(
      loadConfig({}).WEBHOOK_RETRY_SCHEDULE,
      [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
    );
    assert.deepEqual(parseSchedule('250ms, 2s,1m,1h,1d'), [250, 2000, 60_000, 3_600_000, 86_400_000]);
    assert.throws(
      () => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }),
      (e: Error) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /^WEBHOOK_RETRY_SCHEDULE: must be delays like/);
        return true;
      },
    );
  });

  test('each wait is the scheduled one ±20%; Retry-After replaces it, up to an hour; then the schedule is spent', () => {
    const schedule = [1000, 10_000];
    assert.equal(
      nextDelay(schedule, 1, null, () => 0),
      800,
    );
    assert.equal(
      nextDelay(schedule, 1, null, () => 0.999_999),
      1200,
    );
    assert.equal(
      nextDelay(schedule, 2, null, () => 0.5),
      10_000,
    );
    for (let i = 0; i < 1000; i++) {
      const d = nextDelay(schedule, 2, null)!;
      assert.ok(d >= 8000 && d <= 12_000, String(d));
    }
    assert.equal(nextDelay(schedule, 3, null), null);
    assert.equal(nextDelay(schedule, 3, 5000), null, 'Retry-After does not extend a spent schedule');
    assert.equal(nextDelay(schedule, 1, 5000), 5000);
    const now = Date.parse('2026-11-22T12:00:00Z');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs('999999', now), 3_600_000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs(undefined, now), null);
  });

  test('signature: v1, base64 HMAC-SHA256 (as the reference library signs) of id.timestamp.body under the base64 secret, space-separated', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9wL1aFkAjH8=';
    const one = signature([secret], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    const reference = new Webhook(secret).sign(
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330_000),
      '{"test": 2432232314}',
    );
    assert.equal(one, reference, 'the same as the reference library signs');
    const two = signature([secret, `whsec_${randomBytes(32).toString('base64')}`], 'evt_1', 1, '{}');
    assert.match(two, /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  });

  test('secrets at rest: AES-256-GCM, a fresh IV each time, tampering detected, another key refused', () => {
    const box = signingSecrets(createSecretBox(randomBytes(32)));
    const sealed = box.seal('whsec_abc');
    assert.notEqual(box.seal('whsec_abc'), sealed);
    assert.doesNotMatch(sealed, /whsec_abc/);
    assert.equal(box.open(sealed), 'whsec_abc');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    assert.throws(() => box.open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`));
    assert.throws(() => signingSecrets(createSecretBox(randomBytes(32))).open(sealed));
  });
});
