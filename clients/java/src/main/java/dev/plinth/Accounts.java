package dev.plinth;

import dev.plinth.client.api.FintechAccountsApi;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.AccountList;
import dev.plinth.client.model.CloseAccountRequest;
import dev.plinth.client.model.CreateAccountRequest;
import dev.plinth.client.model.FreezeAccountRequest;

/** Fintech accounts: {@code /v1/fintech/accounts}. */
public final class Accounts {
  private final Plinth plinth;
  private final FintechAccountsApi api;

  Accounts(Plinth plinth) {
    this.plinth = plinth;
    this.api = new FintechAccountsApi(plinth.apiClient());
  }

  /** {@code createAccount}. One Idempotency-Key, reused by retries. */
  public Account create(CreateAccountRequest params) { return create(params, null); }

  public Account create(CreateAccountRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.createAccountWithHttpInfo(params, Plinth.key(options)));
  }

  /** {@code retrieveAccount}. */
  public Account retrieve(String id) {
    return plinth.call(() -> api.retrieveAccountWithHttpInfo(id));
  }

  /** {@code listAccounts}: every account, newest first, fetched a page at a time as the iteration goes. */
  public Iterable<Account> list() { return list(null, null); }

  public Iterable<Account> list(ListParams page) { return list(null, page); }

  /** Only the accounts in {@code status} ({@code active}, {@code frozen}, {@code closed}; null: all). */
  public Iterable<Account> list(String status, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(status, cursor), AccountList::getData,
        AccountList::getHasMore, Account::getId);
  }

  /** {@code listAccounts}: one page ({@code data}, {@code has_more}). */
  public AccountList listPage() { return listPage(null, null); }

  public AccountList listPage(ListParams page) { return listPage(null, page); }

  public AccountList listPage(String status, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listAccountsWithHttpInfo(p.getLimit(), p.getStartingAfter(), p.getEndingBefore(), status));
  }

  /** {@code freezeAccount}: no debit or credit until unfrozen. */
  public Account freeze(String id, FreezeAccountRequest params) { return freeze(id, params, null); }

  public Account freeze(String id, FreezeAccountRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.freezeAccountWithHttpInfo(id, params, Plinth.key(options)));
  }

  /** {@code unfreezeAccount}. */
  public Account unfreeze(String id) { return unfreeze(id, null); }

  public Account unfreeze(String id, Plinth.RequestOptions options) {
    return plinth.call(() -> api.unfreezeAccountWithHttpInfo(id, Plinth.key(options)));
  }

  /** {@code closeAccount}: final; both balances must be 0. The reason is {@code other} when not given. */
  public Account close(String id) { return close(id, null, null); }

  public Account close(String id, CloseAccountRequest params) { return close(id, params, null); }

  public Account close(String id, CloseAccountRequest params, Plinth.RequestOptions options) {
    // The generated call would send a null body as the JSON text `null`, which the server refuses: send `{}`.
    CloseAccountRequest body = params == null ? new CloseAccountRequest() : params;
    return plinth.call(() -> api.closeAccountWithHttpInfo(id, Plinth.key(options), body));
  }
}
