import { findOwned, pageOwned } from '../../db/owned.ts';
import { preparedSend } from '../../db/prepared.ts';
import { mergeMetadata, metadataOnCreate, parseMetadata } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import type { Owner, WriteContext } from '../../platform/operations/context.ts';
import { contextOf } from '../../platform/secrets/rotate.ts';
import { cleanField } from './description.ts';
import type {
  ExternalAccount,
  ExternalAccountCreateBody,
  ExternalAccountList,
  ExternalAccountListQuery,
  ExternalAccountUpdateBody,
} from './external-accounts.schema.ts';
import { EXTERNAL_ACCOUNT, type PaymentDeps } from './payments.service.ts';
import { externalAccountFromRow } from './payments.view.ts';
import { isRoutingNumber } from './settings.ts';
import type { MoneyDeps } from './shared.ts';
import type { ExternalAccountsTable } from './tables.ts';

/**
 * External accounts (docs/api.md#bank-account-numbers-and-payments): bank accounts outside Plinth that payments go
 * to. The account number is a secret: sealed at rest, shown as its last four digits.
 */

export const SEALED_EXTERNAL_NUMBER = { table: 'external_accounts', column: 'account_number' };

export function checkRoutingNumber(value: string, param: string): void {
  if (!isRoutingNumber(value))
    throw new ApiError(
      'parameter_invalid',
      `${param} must be an ABA routing number: 9 digits whose last is the check digit of the other eight.`,
      { param },
    );
}

export async function createExternalAccount(
  deps: PaymentDeps,
  ctx: WriteContext<Principal>,
  body: ExternalAccountCreateBody,
): Promise<ExternalAccount> {
  checkRoutingNumber(body.routing_number, 'routing_number');
  const metadata = metadataOnCreate(body.metadata);
  const row: ExternalAccountsTable = {
    id: newId(EXTERNAL_ACCOUNT.prefix, ctx.now.getTime()),
    org_id: ctx.owner.orgId,
    mode: ctx.owner.mode,
    routing_number: body.routing_number,
    account_number: deps.secrets.seal(body.account_number, contextOf(SEALED_EXTERNAL_NUMBER)),
    account_number_last4: body.account_number.slice(-4),
    account_holder_name: cleanField(body.account_holder_name, 140, 'account_holder_name'),
    account_type: body.account_type,
    status: 'active',
    metadata: JSON.stringify(metadata),
    created_at: ctx.now.toISOString(),
  };
  insertExternal(ctx.trx, row);
  const external = externalAccountFromRow(row);
  await deps.events.emit(ctx, [{ type: 'fintech.external_account.created', object: external }]);
  return external;
}

const insertExternal = preparedSend<ExternalAccountsTable>(
  {
    id: true,
    org_id: true,
    mode: true,
    routing_number: true,
    account_number: true,
    account_number_last4: true,
    account_holder_name: true,
    account_type: true,
    status: true,
    metadata: true,
    created_at: true,
  },
  (db, p) => db.insertInto('external_accounts').values(p),
);

type ExternalChange = Pick<
  ExternalAccountsTable,
  'id' | 'routing_number' | 'account_number' | 'account_number_last4' | 'account_holder_name' | 'metadata'
>;
const updateExternal = preparedSend<ExternalChange>(
  {
    id: true,
    routing_number: true,
    account_number: true,
    account_number_last4: true,
    account_holder_name: true,
    metadata: true,
  },
  (db, { id, ...changes }) => db.updateTable('external_accounts').set(changes).where('id', '=', id),
);

export async function ownedExternal(db: Parameters<typeof findOwned>[0], owner: Owner, id: string, param = 'id') {
  const row = isIdOf(EXTERNAL_ACCOUNT.prefix, id) ? await findOwned(db, 'external_accounts', owner, id) : undefined;
  if (row === undefined) throw notFound(EXTERNAL_ACCOUNT, id, param);
  return row;
}

export async function retrieveExternalAccount(deps: MoneyDeps, owner: Principal, id: string): Promise<ExternalAccount> {
  return externalAccountFromRow(await ownedExternal(deps.db, owner, id));
}

/** A change of an external account, with its event when something changed (an update, a notification of change). */
export async function changeExternal(
  deps: MoneyDeps,
  ctx: WriteContext,
  row: ExternalAccountsTable,
  next: ExternalAccountsTable,
): Promise<ExternalAccount> {
  const same =
    next.routing_number === row.routing_number &&
    next.account_number === row.account_number &&
    next.account_holder_name === row.account_holder_name &&
    next.metadata === row.metadata;
  if (same) return externalAccountFromRow(row);
  updateExternal(ctx.trx, next);
  const external = externalAccountFromRow(next);
  await deps.events.emit(ctx, [{ type: 'fintech.external_account.updated', object: external }]);
  return external;
}

export async function updateExternalAccount(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  id: string,
  body: ExternalAccountUpdateBody,
): Promise<ExternalAccount> {
  const row = await ownedExternal(ctx.trx, ctx.owner, id);
  const metadata =
    body.metadata === undefined
      ? row.metadata
      : JSON.stringify(mergeMetadata(parseMetadata(row.metadata), body.metadata));
  const name =
    body.account_holder_name === undefined
      ? row.account_holder_name
      : cleanField(body.account_holder_name, 140, 'account_holder_name');
  return changeExternal(deps, ctx, row, { ...row, account_holder_name: name, metadata });
}

export async function listExternalAccounts(
  deps: MoneyDeps,
  owner: Principal,
  query: ExternalAccountListQuery,
): Promise<ExternalAccountList> {
  const page = await listPage(
    query,
    async (id) =>
      isIdOf(EXTERNAL_ACCOUNT.prefix, id) && (await findOwned(deps.db, 'external_accounts', owner, id)) !== undefined,
    (take, cursor) => pageOwned(deps.db, 'external_accounts', owner, take, cursor),
  );
  return { object: 'list', data: page.rows.map(externalAccountFromRow), has_more: page.hasMore };
}
