import { indexMetadata, metadataOnCreate } from '../../modules/metadata/index.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { createdRange } from '../../platform/http/created-filter.ts';
import { ApiError, type ErrorItem } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { cleanText, cleanTextRule } from '../../platform/kit/text.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { contextOf } from '../../platform/secrets/rotate.ts';
import * as repo from './accounts.repository.ts';
import {
  type Account,
  type AccountCreateBody,
  type AccountListQuery,
  LEGAL_NAME_MAX,
  NICKNAME_MAX,
} from './accounts.schema.ts';
import { accountFromRow, accountOf } from './accounts.view.ts';
import { currencyOf } from './countries.ts';
import { ACCOUNT, type AccountsDeps, accountNotFound } from './shared.ts';
import type { AccountsTable } from './tables.ts';

/** Where the EIN is stored, sealed: also what `cli secrets rotate` re-seals (see the product module). */
export const SEALED_EIN = { table: 'accounts', column: 'kyb_ein' };

/**
 * Rules the schema cannot express: which countries this deployment serves (configuration), and lone surrogates in
 * the legal name, which its pattern lets through (see freeTextPattern). Every failure is collected so that the
 * caller sees them all at once.
 */
function checkCreate(deps: AccountsDeps, body: AccountCreateBody): ErrorItem[] {
  const problems: ErrorItem[] = [];
  if (!deps.supportedCountries.has(body.country)) {
    problems.push({
      code: 'country_unsupported',
      param: 'country',
      detail: `Accounts in ${body.country} are not offered by this deployment.`,
    });
  }
  if (body.kyb != null && cleanText(body.kyb.legal_name, LEGAL_NAME_MAX) === null) {
    problems.push({
      code: 'parameter_invalid',
      param: 'kyb.legal_name',
      detail: cleanTextRule('kyb.legal_name', LEGAL_NAME_MAX),
    });
  }
  if (body.nickname !== undefined && cleanText(body.nickname, NICKNAME_MAX) === null)
    problems.push({ code: 'parameter_invalid', param: 'nickname', detail: cleanTextRule('nickname', NICKNAME_MAX) });
  return problems;
}

export async function createAccount(deps: AccountsDeps, ctx: WriteContext, body: AccountCreateBody): Promise<Account> {
  const { trx, owner, now } = ctx;
  const problems = checkCreate(deps, body);
  if (problems.length > 0) throw ApiError.fromItems(problems as [ErrorItem, ...ErrorItem[]]);
  // Configuration checked at start-up that every served country has a currency.
  const currency = currencyOf(body.country)!;
  const metadata = metadataOnCreate(body.metadata);
  const row: AccountsTable = {
    id: newId(ACCOUNT.prefix, now.getTime()),
    org_id: owner.orgId,
    mode: owner.mode,
    type: body.type,
    country: body.country,
    currency: currency.code,
    status: 'active',
    status_reason: null,
    status_note: null,
    status_actor: null,
    closed_at: null,
    kyb_legal_name: body.kyb?.legal_name.trim() ?? null,
    kyb_ein: body.kyb ? deps.secrets.seal(body.kyb.ein, contextOf(SEALED_EIN)) : null,
    kyb_ein_last4: body.kyb?.ein.slice(-4) ?? null,
    metadata: JSON.stringify(metadata),
    nickname: body.nickname?.trim() ?? null,
    created_at: storedTime(now),
  };
  repo.insertAccount(trx, row);
  indexMetadata(trx, 'accounts', row.id, metadata, false);
  const account = accountOf(row, 0, 0);
  await deps.events.emit(ctx, [{ type: 'fintech.account.created', object: account }]);
  return account;
}

export async function retrieveAccount(deps: AccountsDeps, owner: Principal, id: string): Promise<Account> {
  const row = isIdOf(ACCOUNT.prefix, id) ? await repo.findAccount(deps.db, owner, id) : undefined;
  if (row === undefined) throw accountNotFound(id);
  return accountFromRow(row);
}

export interface AccountPage {
  object: 'list';
  data: Account[];
  has_more: boolean;
}

export async function listAccounts(
  deps: AccountsDeps,
  owner: Principal,
  query: AccountListQuery,
): Promise<AccountPage> {
  const page = await listPage(
    query,
    async (id) => isIdOf(ACCOUNT.prefix, id) && (await repo.findAccount(deps.db, owner, id)) !== undefined,
    (take, cursor) =>
      repo.pageAccounts(deps.db, owner, take, cursor, {
        status: query.status,
        created: createdRange(query.created),
        metadata: query.metadata,
      }),
  );
  return { object: 'list', data: page.rows.map(accountFromRow), has_more: page.hasMore };
}
