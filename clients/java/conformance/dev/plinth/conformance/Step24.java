package dev.plinth.conformance;

import dev.plinth.CreatedApiKey;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.client.model.AccountBalances;
import dev.plinth.client.model.ApiKeyPermissionsAnyOf0;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.SimulateDepositRequest;
import java.util.Map;

/**
 * Step 24 of the scenario: a read-only key. It reads an account and its balances; its transfer is refused with 403
 * {@code permission_denied} before anything moves, as the full key's view of the balance shows.
 */
final class Step24 {
  private Step24() {}

  static void run(Plinth plinth, String url) {
    Conformance.steps("24 a read-only key reads an account and its balances; its transfer is a 403", () -> {
      String a = plinth.accounts().create(Conformance.businessUS()).getId();
      String b = plinth.accounts().create(Conformance.businessUS()).getId();
      plinth.sandbox().deposit(a, new SimulateDepositRequest().amount(1000L));

      CreatedApiKey k = plinth.apiKeys().create(null, "read-only", Map.of("accounts", "read", "transactions", "read"));
      Conformance.ensure(k.getKey().startsWith("rk_test_"), "restricted key " + k.getHint());
      Conformance.ensure("read".equals(k.getPermissions().getAccounts())
          && "read".equals(k.getPermissions().getTransactions()) && "none".equals(k.getPermissions().getTransfers()),
          "permissions " + k.getPermissions());
      ApiKeyPermissionsAnyOf0 read = plinth.apiKeys().retrieve(k.getId()).getPermissions();
      Conformance.ensure(read != null && "read".equals(read.getAccounts()) && "none".equals(read.getSandbox()),
          "retrieved permissions " + read);

      Plinth reader = Plinth.builder().apiKey(k.getKey()).baseUrl(url).build();
      Conformance.ensure(a.equals(reader.accounts().retrieve(a).getId()), "the reader retrieves the account");
      AccountBalances seen = reader.accounts().balances(a);
      Conformance.ensure(seen.getCurrentBalance().getAmount() == 1000L, "the reader's balance " + seen.getCurrentBalance());

      PlinthException e = Conformance.error(() -> reader.transfers().create(new CreateTransferRequest()
          .fromAccountId(a).toAccountId(b).amount(100L).currency("USD")));
      Conformance.ensure(e.getStatus() == 403 && "permission_denied".equals(e.getCode()),
          "transfer with a read-only key: " + e.getStatus() + " " + e.getCode());

      AccountBalances after = plinth.accounts().balances(a);
      Conformance.ensure(after.getCurrentBalance().getAmount() == 1000L && after.getAvailableBalance().getAmount() == 1000L,
          "nothing moved: " + after.getCurrentBalance() + " " + after.getAvailableBalance());
      Conformance.ensure(plinth.accounts().balances(b).getCurrentBalance().getAmount() == 0L, "nothing arrived");
    });
  }
}
