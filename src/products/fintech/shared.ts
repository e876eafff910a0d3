import type { Db } from '../../db/database.ts';
import type { OwnerNow } from '../../platform/clock/clock.ts';
import { type ApiError, notFound } from '../../platform/http/errors.ts';
import type { IdKind } from '../../platform/kit/ids.ts';
import type { Clock } from '../../platform/kit/time.ts';
import type { EventRecorder } from '../../platform/outbox/emit.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';

/** What the fintech services share, so that none imports another for it. */

/** What a service that moves money or changes an account needs: reads on `db`, writes on the `trx` it is handed. */
export interface MoneyDeps {
  db: Db;
  /** Real time: what a service compares only through `now` (the owner's time: the sandbox clock). */
  clock: Clock;
  /** "Now" for an owner, in a read (a write's is `WriteContext.now`): clock/clock.ts. */
  now: OwnerNow;
  events: EventRecorder;
}

/** Creating accounts needs the deployment's countries and the box that seals the EIN as well. */
export interface AccountsDeps extends MoneyDeps {
  supportedCountries: ReadonlySet<string>;
  secrets: SecretBox;
}

export const ACCOUNT: IdKind = { noun: 'account', prefix: 'acct' };
export const TRANSFER: IdKind = { noun: 'transfer', prefix: 'tr' };
export const TRANSACTION: IdKind = { noun: 'transaction', prefix: 'txn' };
export const REVERSAL: IdKind = { noun: 'transfer reversal', prefix: 'trr' };

/** The 404 for an account the caller cannot see; `param` names the field that gave its id. */
export const accountNotFound = (id: string, param = 'id'): ApiError => notFound(ACCOUNT, id, param);
