import type { Principal } from '../../platform/auth/principal.ts';
import { createdRange } from '../../platform/http/created-filter.ts';
import { notFound } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { findAccount } from './accounts.repository.ts';
import { ACCOUNT, accountNotFound, type MoneyDeps, TRANSACTION } from './shared.ts';
import * as repo from './transactions.repository.ts';
import type { Transaction, TransactionList, TransactionListQuery } from './transactions.schema.ts';
import { transactionFromRow } from './transactions.view.ts';

export async function retrieveTransaction(deps: MoneyDeps, owner: Principal, id: string): Promise<Transaction> {
  const row = isIdOf(TRANSACTION.prefix, id) ? await repo.findTransaction(deps.db, owner, id) : undefined;
  if (row === undefined) throw notFound(TRANSACTION, id);
  return transactionFromRow(row);
}

export async function listAccountTransactions(
  deps: MoneyDeps,
  owner: Principal,
  accountId: string,
  query: TransactionListQuery,
): Promise<TransactionList> {
  if (!isIdOf(ACCOUNT.prefix, accountId) || (await findAccount(deps.db, owner, accountId)) === undefined)
    throw accountNotFound(accountId);
  const page = await listPage(
    query,
    async (id) =>
      isIdOf(TRANSACTION.prefix, id) && (await repo.findTransaction(deps.db, owner, id))?.account_id === accountId,
    (take, cursor) => repo.pageTransactions(deps.db, owner, accountId, take, cursor, createdRange(query.created)),
  );
  return { object: 'list', data: page.rows.map(transactionFromRow), has_more: page.hasMore };
}
