import { preparedSend } from '../../db/prepared.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import type { MetadataUpdate } from '../../platform/metadata/metadata.schema.ts';
import { indexMetadata, type MetadataKind, mergeMetadata, parseMetadata } from '../../platform/metadata/metadata.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { lockAccounts } from './accounts.repository.ts';
import type { Account } from './accounts.schema.ts';
import { accountFromRow } from './accounts.view.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps } from './shared.ts';
import { lockTransfer } from './transfers.pending.ts';
import type { Transfer } from './transfers.schema.ts';
import { transferFromRow } from './transfers.view.ts';

/**
 * The integrator's own references on accounts and transfers (docs/api.md#metadata-your-own-references): the one change
 * either takes.
 */

const setMetadata = (table: MetadataKind) =>
  preparedSend<{ id: string; metadata: string }>({ id: true, metadata: true }, (db, p) =>
    db.updateTable(table).set({ metadata: p.metadata }).where('id', '=', p.id),
  );
const SET = { accounts: setMetadata('accounts'), transfers: setMetadata('transfers') };

/**
 * Merges `update` into the row's metadata and, when that changed anything, stores it with its index and emits the
 * object's `.updated` event; answers with the object as it now is. Nothing changed: no write, no event.
 */
async function changeMetadata<T extends object>(
  deps: MoneyDeps,
  ctx: WriteContext,
  kind: MetadataKind,
  row: { id: string; metadata: string },
  update: MetadataUpdate,
  object: (metadata: string) => T,
  type: 'fintech.account.updated' | 'fintech.transfer.updated',
): Promise<T> {
  const before = parseMetadata(row.metadata);
  const after = mergeMetadata(before, update);
  if (JSON.stringify(after) === JSON.stringify(before)) return object(row.metadata);
  const metadata = JSON.stringify(after);
  SET[kind](ctx.trx, { id: row.id, metadata });
  indexMetadata(ctx.trx, kind, row.id, after, true);
  const changed = object(metadata);
  await deps.events.emit(ctx, [{ type, object: changed }]);
  return changed;
}

/** `POST /v1/fintech/accounts/{id}`: metadata only; allowed on a closed account too. */
export async function updateAccount(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  update: MetadataUpdate,
): Promise<Account> {
  if (!isIdOf(ACCOUNT.prefix, id)) throw accountNotFound(id);
  const row = (await lockAccounts(ctx.trx, ctx.owner, [id])).get(id);
  if (row === undefined) throw accountNotFound(id);
  const account = (metadata: string) => accountFromRow({ ...row, metadata });
  return changeMetadata(deps, ctx, 'accounts', row, update, account, 'fintech.account.updated');
}

/** `POST /v1/fintech/transfers/{id}`: metadata only, whatever the transfer's status. */
export async function updateTransfer(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  update: MetadataUpdate,
): Promise<Transfer> {
  const row = await lockTransfer(ctx.trx, ctx.owner, id);
  const transfer = (metadata: string) => transferFromRow({ ...row, metadata });
  return changeMetadata(deps, ctx, 'transfers', row, update, transfer, 'fintech.transfer.updated');
}
