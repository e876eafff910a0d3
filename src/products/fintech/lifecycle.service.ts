import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { cleanText, cleanTextRule } from '../../platform/kit/text.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { disableNumbersOf } from './account-numbers.service.ts';
import { type AccountRow, lockAccounts, updateStatus } from './accounts.repository.ts';
import { accountFromRow } from './accounts.view.ts';
import { toAmount } from './ledger/amount.ts';
import { type CloseBody, type FreezeBody, NOTE_MAX } from './lifecycle.schema.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps } from './shared.ts';
import type { AccountsTable } from './tables.ts';

/** Who asks: an API key (`api`) or the operator CLI (`operator`), whose freeze no API key can lift. */
export type Actor = 'api' | 'operator';

export type LifecycleAction =
  | { kind: 'freeze'; reason: string; note?: string | undefined }
  | { kind: 'unfreeze' }
  | { kind: 'close'; reason?: string | undefined; note?: string | undefined };

type StatusChange = Pick<AccountsTable, 'status' | 'status_reason' | 'status_note' | 'status_actor' | 'closed_at'>;

/** A note as stored: trimmed, by the rule of every free text (the API's schema states it; the CLI comes here). */
function cleanNote(raw: string): string {
  const note = cleanText(raw, NOTE_MAX);
  if (note === null) throw new ApiError('parameter_invalid', cleanTextRule('note', NOTE_MAX), { param: 'note' });
  return note;
}

/** The change an action makes, or null when the account is already in the state asked for (200, unchanged). */
function decide(row: AccountRow, action: LifecycleAction, actor: Actor, now: Date): StatusChange | null {
  if (row.status === 'closed') {
    if (action.kind === 'close') return null;
    throw new ApiError('account_closed', `Account ${row.id} is closed; a closed account never changes again.`);
  }
  if (action.kind === 'freeze') {
    if (row.status === 'frozen') return null;
    const details = { status_reason: action.reason, status_note: action.note ?? null, status_actor: actor };
    return { status: 'frozen', ...details, closed_at: null };
  }
  if (action.kind === 'unfreeze') {
    if (row.status === 'active') return null;
    if (row.status_actor === 'operator' && actor === 'api')
      throw new ApiError('permission_denied', 'The operator froze this account; only the operator can unfreeze it.');
    return { status: 'active', status_reason: null, status_note: null, status_actor: null, closed_at: null };
  }
  const balance = toAmount(row.balance);
  const held = toAmount(row.held);
  if (held !== 0)
    throw new ApiError(
      'account_balance_nonzero',
      `Account ${row.id} has pending outgoing transfers holding ${held} ${row.currency} (minor units); post or ` +
        'void them, or let them expire, before closing it.',
    );
  if (balance !== 0)
    throw new ApiError(
      'account_balance_nonzero',
      `Account ${row.id} holds ${balance} ${row.currency} (minor units); both balances must be 0 to close it.`,
    );
  const details = { status_reason: action.reason ?? 'other', status_note: action.note ?? null, status_actor: actor };
  return { status: 'closed', ...details, closed_at: storedTime(now) };
}

/**
 * Freeze, unfreeze or close, checked and written in one write transaction under the account's row lock, so a
 * concurrent transfer either lands before the change or sees it. `owner` null: the operator, who sees every org.
 */
export async function changeStatus(deps: MoneyDeps, ctx: LifecycleContext, id: string, action: LifecycleAction) {
  const { trx, owner, now } = ctx;
  const asked =
    action.kind !== 'unfreeze' && action.note !== undefined ? { ...action, note: cleanNote(action.note) } : action;
  if (!isIdOf(ACCOUNT.prefix, id)) throw accountNotFound(id);
  const row = (await lockAccounts(trx, owner, [id])).get(id);
  if (row === undefined) throw accountNotFound(id);
  const change = decide(row, asked, owner === null ? 'operator' : 'api', now);
  if (change === null) return accountFromRow(row); // already in that state: no change, no event
  await updateStatus(trx, id, change);
  const account = accountFromRow({ ...row, ...change });
  const owned = { ...ctx, owner: { orgId: row.org_id, mode: row.mode } };
  await deps.events.emit(owned, [{ type: EVENT_OF[action.kind], object: account }]);
  if (action.kind === 'close') await disableNumbersOf(deps, owned, id);
  return account;
}

const EVENT_OF = {
  freeze: 'fintech.account.frozen',
  unfreeze: 'fintech.account.unfrozen',
  close: 'fintech.account.closed',
} as const;

/** A lifecycle change's write: an API principal's, or the operator's (`owner` null), who sees every org. */
export type LifecycleContext = Omit<WriteContext, 'owner'> & { owner: Principal | null };

export const freezeAccount = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string, body: FreezeBody) =>
  changeStatus(deps, ctx, id, { kind: 'freeze', reason: body.reason, note: body.note });

export const unfreezeAccount = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string) =>
  changeStatus(deps, ctx, id, { kind: 'unfreeze' });

export const closeAccount = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string, body: CloseBody) =>
  changeStatus(deps, ctx, id, { kind: 'close', reason: body.reason, note: body.note });
