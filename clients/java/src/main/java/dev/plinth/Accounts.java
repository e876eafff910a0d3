package dev.plinth;

import dev.plinth.client.api.FintechAccountsApi;
import dev.plinth.client.api.FintechTransactionsApi;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.AccountBalances;
import dev.plinth.client.model.AccountList;
import dev.plinth.client.model.AccountStatement;
import dev.plinth.client.model.CloseAccountRequest;
import dev.plinth.client.model.CreateAccountRequest;
import dev.plinth.client.model.FreezeAccountRequest;
import dev.plinth.client.model.UpdateAccountRequest;
import java.time.Instant;
import java.util.Map;

/** Fintech accounts: {@code /v1/fintech/accounts}. */
public final class Accounts {
  private final Plinth plinth;
  private final FintechAccountsApi api;
  private final FintechTransactionsApi ledger;

  Accounts(Plinth plinth) {
    this.plinth = plinth;
    this.api = new FintechAccountsApi(plinth.apiClient());
    this.ledger = new FintechTransactionsApi(plinth.apiClient());
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
  public Iterable<Account> list() { return list((AccountFilter) null, null); }

  public Iterable<Account> list(ListParams page) { return list((AccountFilter) null, page); }

  /** Only the accounts in {@code status} ({@code active}, {@code frozen}, {@code closed}; null: all). */
  public Iterable<Account> list(String status, ListParams page) { return list(new AccountFilter().status(status), page); }

  public Iterable<Account> list(AccountFilter filter) { return list(filter, null); }

  /** Only the accounts {@code filter} admits (status, created, metadata), on every page. */
  public Iterable<Account> list(AccountFilter filter, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(filter, cursor), AccountList::getData,
        AccountList::getHasMore, Account::getId);
  }

  /** {@code listAccounts}: one page ({@code data}, {@code has_more}). */
  public AccountList listPage() { return listPage((AccountFilter) null, null); }

  public AccountList listPage(ListParams page) { return listPage((AccountFilter) null, page); }

  public AccountList listPage(String status, ListParams page) { return listPage(new AccountFilter().status(status), page); }

  public AccountList listPage(AccountFilter filter, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    AccountFilter f = AccountFilter.orDefault(filter);
    return plinth.call(() -> api.listAccountsWithHttpInfo(p.getLimit(), p.getStartingAfter(), p.getEndingBefore(),
        f.getStatus(), Created.forLists(f.getCreated()), Metadata.filter(f.getMetadata())));
  }

  /**
   * {@code updateAccount}: sets each key of {@code metadata} to its value, and removes each key given {@code ""};
   * keys not named stay as they are. Allowed on a closed account.
   */
  public Account update(String id, Map<String, String> metadata) { return update(id, metadata, null); }

  public Account update(String id, Map<String, String> metadata, Plinth.RequestOptions options) {
    UpdateAccountRequest body = new UpdateAccountRequest().metadata(Metadata.changes(metadata));
    return plinth.call(() -> api.updateAccountWithHttpInfo(id, body, Plinth.key(options)));
  }

  /**
   * {@code updateAccount} with metadata, a nickname or both: {@code new UpdateAccountRequest().nickname("Payroll")};
   * {@code nickname("")} removes the nickname, {@code metadata(Metadata.changes(…))} or {@code Metadata.clearAll()}.
   */
  public Account update(String id, UpdateAccountRequest params) { return update(id, params, null); }

  public Account update(String id, UpdateAccountRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.updateAccountWithHttpInfo(id, params, Plinth.key(options)));
  }

  /** {@code updateAccount} with {@code "metadata": ""}: removes every key. */
  public Account clearMetadata(String id) { return clearMetadata(id, null); }

  public Account clearMetadata(String id, Plinth.RequestOptions options) {
    UpdateAccountRequest body = new UpdateAccountRequest().metadata(Metadata.clearAll());
    return plinth.call(() -> api.updateAccountWithHttpInfo(id, body, Plinth.key(options)));
  }

  /** {@code retrieveAccountBalances}: the current and available balances now. */
  public AccountBalances balances(String id) { return balances(id, (String) null); }

  /**
   * The balances as they stood at {@code at}, inclusive: {@code YYYY-MM-DDTHH:MMZ} (the end of that minute) or RFC
   * 3339 with an offset (that instant); not before the account was opened; after now is read as now.
   */
  public AccountBalances balances(String id, String at) {
    return plinth.call(() -> ledger.retrieveAccountBalancesWithHttpInfo(id, at));
  }

  public AccountBalances balances(String id, Instant at) { return balances(id, at.toString()); }

  /**
   * {@code retrieveAccountStatement} for [from, to): opening and closing balances, credits and debits, and always
   * {@code closing = opening + credits − debits}. A minute form means that minute's start; a {@code to} after now is now.
   */
  public AccountStatement statement(String id, String from, String to) {
    return plinth.call(() -> ledger.retrieveAccountStatementWithHttpInfo(from, to, id));
  }

  public AccountStatement statement(String id, Instant from, Instant to) {
    return statement(id, from.toString(), to.toString());
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
