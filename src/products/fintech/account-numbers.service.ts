import { randomInt } from 'node:crypto';
import type { Trx } from '../../db/database.ts';
import { findOwned, pageOwned } from '../../db/owned.ts';
import { preparedSend } from '../../db/prepared.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { type IdKind, isIdOf, newId } from '../../platform/kit/ids.ts';
import type { SecretShape } from '../../platform/kit/redact.ts';
import type { Owner, WriteContext } from '../../platform/operations/context.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { contextOf } from '../../platform/secrets/rotate.ts';
import type {
  AccountNumber,
  AccountNumberCreateBody,
  AccountNumberList,
  AccountNumberListQuery,
  AccountNumberUpdateBody,
} from './account-numbers.schema.ts';
import { findAccount, lockAccounts } from './accounts.repository.ts';
import { cleanField } from './description.ts';
import { insertAccountNumber, numbersEndingIn } from './payments.repository.ts';
import type { PaymentDeps } from './payments.service.ts';
import { accountNumberFromRow } from './payments.view.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps } from './shared.ts';
import type { AccountNumbersTable } from './tables.ts';

/**
 * Bank account numbers (docs/api.md#bank-account-numbers-and-payments): 12 digits, unique for their routing number
 * across the whole instance and never reused (rows are never deleted). A number is a secret: sealed at rest, shown in
 * full only in the answer to its creation, and everywhere else as its last four digits. Finding one (an inbound
 * payment, a bank file) reads the numbers with its routing number and last four digits, and opens each.
 */

export const ACCOUNT_NUMBER: IdKind = { noun: 'account number', prefix: 'an' };
/** Where a number is sealed: also what `cli secrets rotate` re-seals. */
export const SEALED_ACCOUNT_NUMBER = { table: 'account_numbers', column: 'account_number' };
export const SANDBOX_ROUTING_NUMBER = '110000000';

/**
 * Bank account numbers as a secret of the logs (docs/api.md#the-request-log): digits only, so known by the fields that
 * hold them, not by a shape. In every log line and the request log (bodies, answers, query strings) they show as the
 * API shows them, by their last four digits (`••••4821`): an account number's create answer, an external account's
 * number, an inbound payment's, a rule's `external_account_number`, a notification of change's `corrected_data`.
 */
export const ACCOUNT_NUMBER_SHAPE: SecretShape = {
  name: 'account number',
  lastFourFields: ['account_number', 'external_account_number', 'corrected_data'],
};

/** The number's search: the one with this routing number and these digits, whichever org holds it. */
export async function findNumber(
  db: Parameters<typeof numbersEndingIn>[0],
  secrets: SecretBox,
  routing: string,
  digits: string,
): Promise<AccountNumbersTable | undefined> {
  const candidates = await numbersEndingIn(db, routing, digits.slice(-4));
  const context = contextOf(SEALED_ACCOUNT_NUMBER);
  return candidates.find((row) => secrets.open(row.account_number, context) === digits);
}

/** 12 random digits not held by any number of the routing number, under the turn of its last four (across processes). */
async function freshNumber(trx: Trx, secrets: SecretBox, routing: string): Promise<string> {
  for (;;) {
    const digits = String(randomInt(100_000_000_000, 1_000_000_000_000));
    trx.takeTurn(`account_number:${routing}:${digits.slice(-4)}`);
    if ((await findNumber(trx, secrets, routing, digits)) === undefined) return digits;
  }
}

function routingFor(deps: PaymentDeps, owner: Owner): string {
  if (owner.mode === 'sandbox') return SANDBOX_ROUTING_NUMBER;
  if (deps.routingNumber === null)
    throw new ApiError(
      'live_rails_not_configured',
      'Live account numbers need the bank routing number of this deployment (BANK_ROUTING_NUMBER), which is not set.',
    );
  return deps.routingNumber;
}

export async function createAccountNumber(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  body: AccountNumberCreateBody,
): Promise<AccountNumber> {
  const { trx, owner } = ctx;
  const routing = routingFor(deps, owner);
  const account = isIdOf(ACCOUNT.prefix, body.account_id)
    ? (await lockAccounts(trx, owner, [body.account_id])).get(body.account_id)
    : undefined;
  if (account === undefined) throw accountNotFound(body.account_id, 'account_id');
  if (account.status === 'closed')
    throw new ApiError('account_closed', `Account ${account.id} is closed; it takes no new account number.`, {
      param: 'account_id',
    });
  if (account.currency !== 'USD')
    throw new ApiError(
      'currency_mismatch',
      `Account ${account.id} holds ${account.currency}; bank account numbers reach USD accounts only.`,
      { param: 'account_id' },
    );
  const digits = await freshNumber(trx, deps.secrets, routing);
  const row: AccountNumbersTable = {
    id: newId(ACCOUNT_NUMBER.prefix, ctx.now.getTime()),
    org_id: owner.orgId,
    mode: owner.mode,
    account_id: account.id,
    routing_number: routing,
    account_number: deps.secrets.seal(digits, contextOf(SEALED_ACCOUNT_NUMBER)),
    last4: digits.slice(-4),
    name: body.name === undefined ? null : cleanField(body.name, 100, 'name'),
    status: 'active',
    inbound_debits: body.inbound_debits ?? 'blocked',
    created_at: ctx.now.toISOString(),
  };
  insertAccountNumber(trx, row);
  await deps.events.emit(ctx, [{ type: 'fintech.account_number.created', object: accountNumberFromRow(row) }]);
  return accountNumberFromRow(row, digits);
}

async function ownedNumber(db: Parameters<typeof findOwned>[0], owner: Owner, id: string) {
  const row = isIdOf(ACCOUNT_NUMBER.prefix, id) ? await findOwned(db, 'account_numbers', owner, id) : undefined;
  if (row === undefined) throw notFound(ACCOUNT_NUMBER, id);
  return row;
}

export async function retrieveAccountNumber(deps: MoneyDeps, owner: Principal, id: string): Promise<AccountNumber> {
  return accountNumberFromRow(await ownedNumber(deps.db, owner, id));
}

type NumberChange = Pick<AccountNumbersTable, 'id' | 'name' | 'status' | 'inbound_debits'>;
const updateNumber = preparedSend<NumberChange>({ id: true, name: true, status: true, inbound_debits: true }, (db, p) =>
  db
    .updateTable('account_numbers')
    .set({ name: p.name, status: p.status, inbound_debits: p.inbound_debits })
    .where('id', '=', p.id),
);

export async function updateAccountNumber(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  body: AccountNumberUpdateBody,
): Promise<AccountNumber> {
  const row = await ownedNumber(ctx.trx, ctx.owner, id);
  // The account's row lock orders this against its closing, which disables its numbers.
  const account = (await lockAccounts(ctx.trx, ctx.owner, [row.account_id])).get(row.account_id)!;
  if (body.status === 'active' && account.status === 'closed')
    throw new ApiError('account_closed', `Account ${account.id} is closed; its numbers stay disabled.`, {
      param: 'status',
    });
  const next: AccountNumbersTable = {
    ...row,
    name: body.name === undefined ? row.name : cleanField(body.name, 100, 'name'),
    status: body.status ?? row.status,
    inbound_debits: body.inbound_debits ?? row.inbound_debits,
  };
  if (next.name === row.name && next.status === row.status && next.inbound_debits === row.inbound_debits)
    return accountNumberFromRow(row);
  updateNumber(ctx.trx, next);
  await deps.events.emit(ctx, [{ type: 'fintech.account_number.updated', object: accountNumberFromRow(next) }]);
  return accountNumberFromRow(next);
}

/** When an account closes, its active numbers are disabled, each with its event (lifecycle.service.ts). */
export async function disableNumbersOf(deps: MoneyDeps, ctx: WriteContext, accountId: string): Promise<void> {
  const rows = await ctx.trx
    .selectFrom('account_numbers')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .execute();
  for (const row of rows) {
    const next = { ...row, status: 'disabled' as const };
    updateNumber(ctx.trx, next);
    await deps.events.emit(ctx, [{ type: 'fintech.account_number.updated', object: accountNumberFromRow(next) }]);
  }
}

export async function listAccountNumbers(
  deps: MoneyDeps,
  owner: Principal,
  query: AccountNumberListQuery,
): Promise<AccountNumberList> {
  const accountId = query.account_id;
  if (accountId !== undefined && !(isIdOf(ACCOUNT.prefix, accountId) && (await findAccount(deps.db, owner, accountId))))
    throw accountNotFound(accountId, 'account_id');
  const page = await listPage(
    query,
    async (id) =>
      isIdOf(ACCOUNT_NUMBER.prefix, id) && (await findOwned(deps.db, 'account_numbers', owner, id)) !== undefined,
    (take, cursor) =>
      pageOwned(deps.db, 'account_numbers', owner, take, cursor, (q) => {
        let narrowed = q;
        if (accountId !== undefined) narrowed = narrowed.where('account_id', '=', accountId);
        if (query.status !== undefined) narrowed = narrowed.where('status', '=', query.status);
        return narrowed;
      }),
  );
  return { object: 'list', data: page.rows.map((row) => accountNumberFromRow(row)), has_more: page.hasMore };
}
