import type { Trx } from '../../db/database.ts';
import { preparedSend } from '../../db/prepared.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import type { MetadataUpdate } from '../../platform/metadata/metadata.schema.ts';
import {
  indexMetadata,
  type Metadata,
  type MetadataKind,
  mergeMetadata,
  parseMetadata,
} from '../../platform/metadata/metadata.ts';
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

/** Stores merged metadata and its index; false when nothing changed (then no write and no event). */
function store(trx: Trx, kind: MetadataKind, id: string, before: Metadata, update: MetadataUpdate): Metadata | null {
  const after = mergeMetadata(before, update);
  if (JSON.stringify(after) === JSON.stringify(before)) return null;
  SET[kind](trx, { id, metadata: JSON.stringify(after) });
  indexMetadata(trx, kind, id, after, true);
  return after;
}

/** `POST /v1/fintech/accounts/{id}`: metadata only; allowed on a closed account too. */
export async function updateAccount(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  update: MetadataUpdate,
): Promise<Account> {
  const { trx, owner } = ctx;
  if (!isIdOf(ACCOUNT.prefix, id)) throw accountNotFound(id);
  const row = (await lockAccounts(trx, owner, [id])).get(id);
  if (row === undefined) throw accountNotFound(id);
  const after = store(trx, 'accounts', id, parseMetadata(row.metadata), update);
  if (after === null) return accountFromRow(row);
  const account = accountFromRow({ ...row, metadata: JSON.stringify(after) });
  await deps.events.emit(ctx, [{ type: 'fintech.account.updated', object: account }]);
  return account;
}

/** `POST /v1/fintech/transfers/{id}`: metadata only, whatever the transfer's status. */
export async function updateTransfer(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  update: MetadataUpdate,
): Promise<Transfer> {
  const { trx, owner } = ctx;
  const row = await lockTransfer(trx, owner, id);
  const after = store(trx, 'transfers', id, parseMetadata(row.metadata), update);
  if (after === null) return transferFromRow(row);
  const transfer = transferFromRow({ ...row, metadata: JSON.stringify(after) });
  await deps.events.emit(ctx, [{ type: 'fintech.transfer.updated', object: transfer }]);
  return transfer;
}
