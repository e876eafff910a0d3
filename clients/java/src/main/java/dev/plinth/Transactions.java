package dev.plinth;

import dev.plinth.client.api.FintechTransactionsApi;
import dev.plinth.client.model.Transaction;
import dev.plinth.client.model.TransactionList;

/** Fintech transactions: what each movement of money did to one account. */
public final class Transactions {
  private final Plinth plinth;
  private final FintechTransactionsApi api;

  Transactions(Plinth plinth) {
    this.plinth = plinth;
    this.api = new FintechTransactionsApi(plinth.apiClient());
  }

  /** {@code listAccountTransactions}: every transaction of an account, newest first, a page at a time. */
  public Iterable<Transaction> list(String accountId) { return list(accountId, null, null); }

  public Iterable<Transaction> list(String accountId, ListParams page) { return list(accountId, null, page); }

  /** Only the transactions {@code filter} admits (created), on every page. */
  public Iterable<Transaction> list(String accountId, TransactionFilter filter, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(accountId, filter, cursor), TransactionList::getData,
        TransactionList::getHasMore, Transaction::getId);
  }

  /** {@code listAccountTransactions}: one page. */
  public TransactionList listPage(String accountId) { return listPage(accountId, null, null); }

  public TransactionList listPage(String accountId, ListParams page) { return listPage(accountId, null, page); }

  public TransactionList listPage(String accountId, TransactionFilter filter, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    TransactionFilter f = TransactionFilter.orDefault(filter);
    return plinth.call(() -> api.listAccountTransactionsWithHttpInfo(accountId, p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore(), Created.forLists(f.getCreated())));
  }

  /** {@code retrieveTransaction}. */
  public Transaction retrieve(String id) {
    return plinth.call(() -> api.retrieveTransactionWithHttpInfo(id));
  }
}
