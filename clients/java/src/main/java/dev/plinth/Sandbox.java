package dev.plinth;

import dev.plinth.client.api.FintechTransactionsApi;
import dev.plinth.client.model.SimulateDepositRequest;
import dev.plinth.client.model.SimulateWithdrawalRequest;
import dev.plinth.client.model.Transaction;
import dev.plinth.client.model.Transfer;

/** Sandbox simulations (sandbox keys only): money in and out from nowhere, for testing. */
public final class Sandbox {
  private final Plinth plinth;
  private final FintechTransactionsApi api;

  Sandbox(Plinth plinth) {
    this.plinth = plinth;
    this.api = new FintechTransactionsApi(plinth.apiClient());
  }

  /** {@code simulateDeposit}: the credit transaction. */
  public Transaction deposit(String accountId, SimulateDepositRequest params) { return deposit(accountId, params, null); }

  public Transaction deposit(String accountId, SimulateDepositRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.simulateDepositWithHttpInfo(accountId, params, Plinth.key(options)));
  }

  /** {@code simulateWithdrawal}: the debit transaction ({@code insufficient_funds} possible). */
  public Transaction withdraw(String accountId, SimulateWithdrawalRequest params) {
    return withdraw(accountId, params, null);
  }

  public Transaction withdraw(String accountId, SimulateWithdrawalRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.simulateWithdrawalWithHttpInfo(accountId, params, Plinth.key(options)));
  }

  /**
   * {@code simulateTransferExpiry}: a pending transfer expires now, as it would at its {@code expires_at}:
   * {@code expired}, its hold released. 409 {@code transfer_not_pending} when it is not pending.
   */
  public Transfer expireTransfer(String id) { return expireTransfer(id, null); }

  public Transfer expireTransfer(String id, Plinth.RequestOptions options) {
    return plinth.call(() -> api.simulateTransferExpiryWithHttpInfo(id, Plinth.key(options)));
  }
}
