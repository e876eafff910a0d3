import { ApiError } from '../../platform/http/errors.ts';
import { listPage } from '../../platform/http/pagination.ts';
import type { Principal } from '../../platform/keys/principal.ts';
import { isIdOf } from '../../platform/kit/ids.ts';
import { findAccount } from './accounts.repository.ts';
import { accountNotFound } from './lifecycle.service.ts';
import * as repo from './transactions.repository.ts';
import type { Transaction, TransactionList, TransactionListQuery } from './transactions.schema.ts';
import { transactionFromRow } from './transactions.view.ts';
import type { MoneyDeps } from './transfers.service.ts';

export async function retrieveTransaction(deps: MoneyDeps, owner: Principal, id: string): Promise<Transaction> {
  const row = isIdOf('txn', id) ? await repo.findTransaction(deps.db, owner, id) : undefined;
  if (row === undefined)
    throw new ApiError('resource_not_found', `No such transaction: ${id.slice(0, 64)}`, { param: 'id' });
  return transactionFromRow(row);
}

export async function listAccountTransactions(
  deps: MoneyDeps,
  owner: Principal,
  accountId: string,
  query: TransactionListQuery,
): Promise<TransactionList> {
  if (!isIdOf('acct', accountId) || (await findAccount(deps.db, owner, accountId)) === undefined)
    throw accountNotFound(accountId);
  const page = await listPage(
    query,
    async (id) => isIdOf('txn', id) && (await repo.findTransaction(deps.db, owner, id))?.account_id === accountId,
    (take, cursor) => repo.pageTransactions(deps.db, owner, accountId, take, cursor),
  );
  return { object: 'list', data: page.rows.map(transactionFromRow), has_more: page.hasMore };
}
