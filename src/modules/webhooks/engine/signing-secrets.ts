import { boundedCache } from '../../../platform/kit/bounded-cache.ts';
import type { SecretBox } from '../../../platform/secrets/box.ts';

/** Where a webhook endpoint's signing secret is kept, sealed; `cli secrets rotate` re-seals it. */
export const WEBHOOK_SECRET_COLUMN = { table: 'webhook_endpoints', column: 'secret' };

/** Signing secrets sealed at rest: the secrets box bound to the endpoint's signing-secret column. */
export interface SigningSecrets {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * A rotated-out secret (`previous_secret`) is the sealed value moved as it is, so it keeps this column's context;
 * it lives at most 7 days, and `cli secrets rotate` re-seals only the current one.
 */
export function signingSecrets(box: SecretBox): SigningSecrets {
  const context = `${WEBHOOK_SECRET_COLUMN.table}.${WEBHOOK_SECRET_COLUMN.column}`;
  // Every attempt signs with its endpoint's secret; opening it (AES-GCM with a fresh key object) cost more than the
  // HMAC itself. A sealed value is unique (a fresh IV each time it is sealed), so it is a safe key for its plain
  // text; a rotated or rolled secret is a new sealed value. Bounded: the oldest go first.
  return {
    seal: (plain) => box.seal(plain, context),
    open: boundedCache(OPENED_SECRETS_KEPT, (sealed: string) => box.open(sealed, context)),
  };
}

const OPENED_SECRETS_KEPT = 1024;
