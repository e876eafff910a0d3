package dev.plinth.conformance;

import dev.plinth.AccountFilter;
import dev.plinth.Created;
import dev.plinth.CreatedWebhookEndpoint;
import dev.plinth.EventFilter;
import dev.plinth.Metadata;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.TransactionFilter;
import dev.plinth.TransferFilter;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.CreateWebhookEndpointRequest;
import dev.plinth.client.model.Event;
import dev.plinth.client.model.SimulateDepositRequest;
import dev.plinth.client.model.Transaction;
import dev.plinth.client.model.Transfer;
import dev.plinth.client.model.UpdateWebhookEndpointRequest;
import dev.plinth.client.model.WebhookEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Steps 20–21 of the scenario: pending transfers, metadata and the list filters, through the layer only. */
final class Steps20To21 {
  private Steps20To21() {}

  /** No object of this organisation was created on or after this minute. */
  private static final String FUTURE = "2999-01-01T00:00Z";

  static void run(Plinth plinth, List<String> accounts, String receiverUrl) {
    String first = accounts.get(0);
    String second = accounts.get(1);
    String[] pendingIds = new String[3];

    Conformance.steps("20 pending transfers: hold, post part, void, expire", () -> {
      long had = plinth.accounts().retrieve(first).getCurrentBalance().getAmount();
      plinth.sandbox().deposit(first, new SimulateDepositRequest().amount(10000L));
      Transfer held = plinth.transfers().create(pending(first, second, 4000L)
          .metadata(Map.of("order", "A-1")).expiresInSeconds(3600));
      Conformance.ensure("pending".equals(held.getStatus()) && Boolean.TRUE.equals(held.getPending())
          && held.getExpiresAt() != null && held.getPostedAmount() == null,
          "pending transfer " + held.getStatus() + " expires_at " + held.getExpiresAt() + " posted " + held.getPostedAmount());
      Conformance.ensure(Map.of("order", "A-1").equals(held.getMetadata()), "metadata " + held.getMetadata());
      pendingIds[0] = held.getId();
      Account a = plinth.accounts().retrieve(first);
      Conformance.ensure(a.getCurrentBalance().getAmount() == had + 10000 && a.getAvailableBalance().getAmount() == had + 6000,
          "balances current " + a.getCurrentBalance().getAmount() + " available " + a.getAvailableBalance().getAmount());

      Transfer posted = plinth.transfers().post(held.getId(), 2500L);
      Conformance.ensure("posted".equals(posted.getStatus()) && Long.valueOf(2500L).equals(posted.getPostedAmount()),
          "posted " + posted.getStatus() + " " + posted.getPostedAmount());
      Account b = plinth.accounts().retrieve(first);
      Conformance.ensure(b.getAvailableBalance().getAmount().equals(b.getCurrentBalance().getAmount())
          && b.getCurrentBalance().getAmount() == had + 7500,
          "balances current " + b.getCurrentBalance().getAmount() + " available " + b.getAvailableBalance().getAmount());

      Transfer toVoid = plinth.transfers().create(pending(first, second, 1000L));
      pendingIds[1] = toVoid.getId();
      Transfer voided = plinth.transfers().voidTransfer(toVoid.getId());
      Conformance.ensure("voided".equals(voided.getStatus()), "voided " + voided.getStatus());
      PlinthException notPending = Conformance.error(() -> plinth.transfers().post(toVoid.getId()));
      Conformance.ensure(notPending.getStatus() == 409 && "transfer_not_pending".equals(notPending.getCode()),
          "post of a voided transfer " + notPending);

      Transfer toExpire = plinth.transfers().create(pending(first, second, 500L));
      pendingIds[2] = toExpire.getId();
      Transfer expired = plinth.sandbox().expireTransfer(toExpire.getId());
      Conformance.ensure("expired".equals(expired.getStatus()), "expired " + expired.getStatus());
      PlinthException late = Conformance.error(() -> plinth.transfers().post(toExpire.getId()));
      Conformance.ensure(late.getStatus() == 409 && "transfer_expired".equals(late.getCode()),
          "post of an expired transfer " + late);
    });

    Conformance.steps("21 metadata and filters", () -> {
      Account updated = plinth.accounts().update(first, Map.of("customer", "c-42"));
      Conformance.ensure(Map.of("customer", "c-42").equals(updated.getMetadata()), "metadata " + updated.getMetadata());
      List<String> byMetadata = new ArrayList<>();
      for (Account a : plinth.accounts().list(new AccountFilter().metadata("customer", "c-42"))) byMetadata.add(a.getId());
      Conformance.ensure(byMetadata.equals(List.of(first)), "accounts with metadata[customer]=c-42: " + byMetadata);

      List<String> stillPending = new ArrayList<>();
      for (Transfer t : plinth.transfers().list(new TransferFilter().status("pending"))) stillPending.add(t.getId());
      for (String id : pendingIds) Conformance.ensure(!stillPending.contains(id), id + " still listed as pending");
      List<String> byOrder = new ArrayList<>();
      for (Transfer t : plinth.transfers().list(new TransferFilter().metadata("order", "A-1"))) byOrder.add(t.getId());
      Conformance.ensure(byOrder.equals(List.of(pendingIds[0])), "transfers with metadata[order]=A-1: " + byOrder);
      Transfer cleared = plinth.transfers().update(pendingIds[0], Map.of("order", ""));
      Conformance.ensure(cleared.getMetadata() != null && cleared.getMetadata().isEmpty(), "metadata " + cleared.getMetadata());

      String since = updated.getCreatedAt();
      int events = 0;
      for (Event e : plinth.events().list(new EventFilter().created(new Created().gte(since)))) events++;
      Conformance.ensure(events >= 1, "events created since " + since + ": " + events);
      // The bounds are on the wire: none from the future, and the first account's transactions since its creation.
      Conformance.ensure(!plinth.events().list(new EventFilter().created(new Created().gte(FUTURE))).iterator().hasNext(),
          "events from the future");
      int transactions = 0;
      for (Transaction t : plinth.transactions().list(first, new TransactionFilter().created(new Created().gte(since)), null)) {
        transactions++;
      }
      Conformance.ensure(transactions >= 4, "transactions since " + since + ": " + transactions);
      Conformance.ensure(plinth.transactions().listPage(first, new TransactionFilter().created(new Created().gte(FUTURE)), null)
          .getData().isEmpty(), "transactions from the future");

      // "" clears every key, on an account and on a webhook endpoint (created with metadata, changed, cleared).
      Account bare = plinth.accounts().clearMetadata(first);
      Conformance.ensure(bare.getMetadata() != null && bare.getMetadata().isEmpty(), "cleared " + bare.getMetadata());
      CreatedWebhookEndpoint endpoint = plinth.webhookEndpoints().create(new CreateWebhookEndpointRequest()
          .url(receiverUrl + "/hook").enabledEvents(Set.of("fintech.transfer.posted")).metadata(Map.of("team", "payments")));
      Conformance.ensure(Map.of("team", "payments").equals(endpoint.getMetadata()), "endpoint " + endpoint.getMetadata());
      WebhookEndpoint changed = plinth.webhookEndpoints().update(endpoint.getId(), new UpdateWebhookEndpointRequest()
          .metadata(Metadata.changes(Map.of("team", "", "owner", "ops"))));
      Conformance.ensure(Map.of("owner", "ops").equals(changed.getMetadata()), "endpoint " + changed.getMetadata());
      WebhookEndpoint none = plinth.webhookEndpoints().clearMetadata(endpoint.getId());
      Conformance.ensure(none.getMetadata() != null && none.getMetadata().isEmpty(), "endpoint " + none.getMetadata());
      plinth.webhookEndpoints().delete(endpoint.getId());
    });
  }

  private static CreateTransferRequest pending(String from, String to, long amount) {
    return new CreateTransferRequest().fromAccountId(from).toAccountId(to).amount(amount).currency("USD").pending(true);
  }
}
