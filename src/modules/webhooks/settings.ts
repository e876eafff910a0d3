import { type Static, Type } from 'typebox';
import { flag, integer, text } from '../../platform/kit/settings.ts';
import { parseSchedule } from './engine/schedule.ts';

/** The webhooks' environment variables (the README's table lists them with every other module's). */
export const WebhooksSettings = Type.Object({
  WEBHOOK_TIMEOUT_SECONDS: integer(15, 1, 300, 'seconds one webhook delivery attempt may take, connecting included'),
  WEBHOOK_RETRY_SCHEDULE: text(
    '5s,5m,30m,2h,5h,10h,14h,20h,24h',
    'waits before each retry of a failed delivery (units `ms`, `s`, `m`, `h`, `d`), each with ±20% jitter; after ' +
      'the last the delivery is `failed`',
    parseSchedule,
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(
    false,
    '`on` lets sandbox endpoints target loopback and private addresses (local development); never live ones',
  ),
  // 64: one organisation's rate is its bound (docs/api.md, "Delivery policy") per round trip of claim, attempt and
  // record; at 16 (a bound of 8 sandbox attempts) one organisation got ~1,000 deliveries/s against a receiver
  // answering at once, short of half the creates one server makes (bench/FINDINGS.md, issue 44).
  WEBHOOK_CONCURRENCY: integer(64, 1, 1000, 'webhook delivery attempts each delivery process runs at once'),
  WEBHOOK_WORKERS: integer(
    1,
    1,
    64,
    'webhook delivery processes the server starts beside its API process(es); they deliver, the API does not',
  ),
});
export type WebhooksConfig = Static<typeof WebhooksSettings>;
