import { Type } from 'typebox';
import { flag, integer } from '../../platform/kit/settings.ts';
import { defineModule } from '../../platform/module.ts';
import { apiKeysRoutes } from './api-keys.routes.ts';

export { keyOps } from './api-keys.routes.ts';

import type { ApiKey } from './api-keys.schema.ts';

declare module '../../platform/outbox/types.ts' {
  interface EventPayloads {
    'api_key.created': ApiKey;
    'api_key.revoked': ApiKey;
  }
}

export const KeysSettings = Type.Object({
  API_KEYS_PER_ORG: integer(50, 1, 100_000, 'active API keys an org may have per mode (the operator CLI is exempt)'),
  SIGNUP_PER_HOUR: integer(10, 1, 1_000_000, 'sandbox sign-ups per client address per hour (also the burst)'),
  SANDBOX_SIGNUP: flag(true, '`on` or `off`; `off` makes `POST /v1/sandbox/signup` answer 403 `permission_denied`'),
});

/** API keys: the sandbox sign-up and key management (docs/api.md#keys-and-the-sandbox). */
export const keys = defineModule({
  name: 'keys',
  tags: [
    {
      name: 'API keys',
      description:
        'Sandbox sign-up and key management. A key sees and manages only its own organisation’s keys of its ' +
        'own mode.',
    },
  ],
  settings: KeysSettings,
  eventTypes: ['api_key.created', 'api_key.revoked'],
  install(app, { database, clock, events, withIdempotency, keys, limiter, settings }) {
    apiKeysRoutes(app, {
      db: database.db,
      write: database.write,
      clock,
      events,
      withIdempotency,
      forgetKey: keys.forget,
      limiter,
      signupLimit: { rate: settings.SIGNUP_PER_HOUR / 3600, burst: settings.SIGNUP_PER_HOUR },
      signupEnabled: settings.SANDBOX_SIGNUP,
      keysPerOrg: settings.API_KEYS_PER_ORG,
    });
  },
});

// The org the operator CLI's `--org` names (cli audit verify).
export { findOrgForOperator } from './api-keys.operator.ts';
// The public face the dashboard reads.
export { KeyIdParams } from './api-keys.schema.ts';
