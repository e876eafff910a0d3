import { preparedSend } from '../../db/prepared.ts';
import type { MetadataUpdate } from '../../modules/metadata/index.ts';
import { indexMetadata, type MetadataKind, mergeMetadata, parseMetadata } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { cleanText, cleanTextRule } from '../../platform/kit/text.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { lockAccounts } from './accounts.repository.ts';
import { type Account, type AccountUpdateBody, NICKNAME_MAX } from './accounts.schema.ts';
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

/** Merges `update` into the row's metadata and stores it with its index when that changed anything. */
function storeMetadata(
  ctx: WriteContext,
  kind: MetadataKind,
  row: { id: string; metadata: string },
  update: MetadataUpdate | undefined,
): { metadata: string; changed: boolean } {
  if (update === undefined) return { metadata: row.metadata, changed: false };
  const before = parseMetadata(row.metadata);
  const after = mergeMetadata(before, update);
  if (JSON.stringify(after) === JSON.stringify(before)) return { metadata: row.metadata, changed: false };
  const metadata = JSON.stringify(after);
  SET[kind](ctx.trx, { id: row.id, metadata });
  indexMetadata(ctx.trx, kind, row.id, after, true);
  return { metadata, changed: true };
}

const setNickname = preparedSend<{ id: string; nickname: string | null }>({ id: true, nickname: true }, (db, p) =>
  db.updateTable('accounts').set({ nickname: p.nickname }).where('id', '=', p.id),
);

/** A nickname as sent in an update: `""` clears it; anything else is checked as at creation. */
function nicknameOf(sent: string): string | null {
  if (sent === '') return null;
  const nickname = cleanText(sent, NICKNAME_MAX);
  if (nickname === null)
    throw new ApiError('parameter_invalid', cleanTextRule('nickname', NICKNAME_MAX), { param: 'nickname' });
  return nickname;
}

/**
 * `POST /v1/fintech/accounts/{id}`: the metadata and the nickname, either or both; allowed on a closed account too.
 * Nothing changed: no write, no event.
 */
export async function updateAccount(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  body: AccountUpdateBody,
): Promise<Account> {
  const nickname = body.nickname === undefined ? undefined : nicknameOf(body.nickname);
  if (!isIdOf(ACCOUNT.prefix, id)) throw accountNotFound(id);
  const row = (await lockAccounts(ctx.trx, ctx.owner, [id])).get(id);
  if (row === undefined) throw accountNotFound(id);
  const renamed = nickname !== undefined && nickname !== row.nickname;
  if (renamed) setNickname(ctx.trx, { id, nickname });
  const { metadata, changed } = storeMetadata(ctx, 'accounts', row, body.metadata);
  const account = accountFromRow({ ...row, metadata, nickname: renamed ? nickname : row.nickname });
  if (renamed || changed) await deps.events.emit(ctx, [{ type: 'fintech.account.updated', object: account }]);
  return account;
}

/** `POST /v1/fintech/transfers/{id}`: metadata only, whatever the transfer's status. */
export async function updateTransfer(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  update: MetadataUpdate,
): Promise<Transfer> {
  const row = await lockTransfer(ctx.trx, ctx.owner, id);
  const { metadata, changed } = storeMetadata(ctx, 'transfers', row, update);
  const transfer = transferFromRow({ ...row, metadata });
  if (changed) await deps.events.emit(ctx, [{ type: 'fintech.transfer.updated', object: transfer }]);
  return transfer;
}
