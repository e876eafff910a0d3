package dev.plinth.conformance;

import dev.plinth.CreatedApiKey;
import dev.plinth.CreatedWebhookEndpoint;
import dev.plinth.ListParams;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.ApiKey;
import dev.plinth.client.model.CloseAccountRequest;
import dev.plinth.client.model.CreateApiKeyRequest;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.DeletedWebhookEndpoint;
import dev.plinth.client.model.Event;
import dev.plinth.client.model.FreezeAccountRequest;
import dev.plinth.client.model.SimulateDepositRequest;
import dev.plinth.client.model.SimulateWithdrawalRequest;
import dev.plinth.client.model.Transaction;
import dev.plinth.client.model.Transfer;
import dev.plinth.client.model.UpdateWebhookEndpointRequest;
import dev.plinth.client.model.WebhookDelivery;
import dev.plinth.client.model.WebhookEndpoint;
import java.util.ArrayList;
import java.util.List;

/** Steps 13–19 of the scenario: every other operation, through the layer's methods only. */
final class Steps13To19 {
  private Steps13To19() {}

  static void run(Plinth plinth, List<String> accounts, String transferId, String endpointId, String firstSecret,
      String testEventId) {
    String first = accounts.get(0);
    String second = accounts.get(1);

    Conformance.steps("13 freeze, list by status, a transfer to a frozen account fails, unfreeze", () -> {
      Account a = plinth.accounts().freeze(second, new FreezeAccountRequest()
          .reason(FreezeAccountRequest.ReasonEnum.COMPLIANCE_REVIEW).note("conformance"));
      Conformance.ensure("frozen".equals(a.getStatus()), "status " + a.getStatus());
      Conformance.ensure(a.getStatusDetails() != null && "compliance_review".equals(a.getStatusDetails().getReason()),
          "status_details " + a.getStatusDetails());
      List<String> frozen = new ArrayList<>();
      for (Account each : plinth.accounts().list("frozen", null)) frozen.add(each.getId());
      Conformance.ensure(frozen.equals(List.of(second)), "frozen accounts " + frozen);
      PlinthException e = Conformance.error(() -> plinth.transfers().create(new CreateTransferRequest()
          .fromAccountId(first).toAccountId(second).amount(1L).currency("USD")));
      Conformance.ensure(e.getStatus() == 409 && "account_frozen".equals(e.getCode()), "error " + e);
      Conformance.ensure("to_account_id".equals(e.getParam()), "param " + e.getParam());
      Account b = plinth.accounts().unfreeze(second);
      Conformance.ensure("active".equals(b.getStatus()) && b.getStatusDetails() == null,
          "status " + b.getStatus() + " details " + b.getStatusDetails());
    });

    Conformance.steps("14 sandbox withdrawal", () -> {
      Transaction t = plinth.sandbox().withdraw(first, new SimulateWithdrawalRequest().amount(500L));
      Conformance.ensure(t.getAmount() == -500L && t.getBalanceAfter() == 7000L,
          "amount " + t.getAmount() + " balance_after " + t.getBalanceAfter());
    });

    Conformance.steps("15 transfers of one account, retrieve", () -> {
      List<String> ids = new ArrayList<>();
      for (Transfer t : plinth.transfers().list(second, null)) ids.add(t.getId());
      Conformance.ensure(ids.equals(List.of(transferId)), "transfers " + ids + " expected " + transferId);
      Transfer t = plinth.transfers().retrieve(transferId);
      Conformance.ensure(transferId.equals(t.getId()) && t.getAmount() == 2500L, "retrieved " + t.getId());
    });

    Conformance.steps("16 close an account; a deposit to it fails", () -> {
      String third = plinth.accounts().create(Conformance.businessUS()).getId();
      Account c = plinth.accounts().close(third,
          new CloseAccountRequest().reason(CloseAccountRequest.ReasonEnum.CUSTOMER_REQUEST));
      Conformance.ensure("closed".equals(c.getStatus()) && c.getClosedAt() != null,
          "status " + c.getStatus() + " closed_at " + c.getClosedAt());
      PlinthException e = Conformance.error(() ->
          plinth.sandbox().deposit(third, new SimulateDepositRequest().amount(1L)));
      Conformance.ensure(e.getStatus() == 409 && "account_closed".equals(e.getCode()), "error " + e);
    });

    Conformance.steps("17 events by type, across pages; retrieve", () -> {
      List<Event> events = new ArrayList<>();
      for (Event e : plinth.events().list("fintech.account.created", new ListParams().limit(2))) events.add(e);
      Conformance.ensure(events.size() >= 3, "events " + events.size());
      for (int i = 0; i < events.size(); i++) {
        Conformance.ensure("fintech.account.created".equals(events.get(i).getType()), "type " + events.get(i).getType());
        if (i > 0) {
          Conformance.ensure(events.get(i).getSequence() < events.get(i - 1).getSequence(), "sequences not decreasing");
        }
      }
      Event one = plinth.events().retrieve(events.get(0).getId());
      Conformance.ensure(one.getId().equals(events.get(0).getId()) && one.getSequence().equals(events.get(0).getSequence()),
          "retrieved " + one.getId() + " #" + one.getSequence());
    });

    Conformance.steps("18 endpoint update, deliveries, retry, rotate, list, delete", () -> {
      WebhookEndpoint u = plinth.webhookEndpoints().update(endpointId, new UpdateWebhookEndpointRequest().description("updated"));
      Conformance.ensure("updated".equals(u.getDescription()), "description " + u.getDescription());
      // The receiver has the test delivery (step 12); the server records its success just after answering it.
      WebhookDelivery delivery = null;
      for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; Thread.sleep(100)) {
        delivery = null;
        for (WebhookDelivery d : plinth.webhookEndpoints().listDeliveries(endpointId)) {
          if (testEventId.equals(d.getEventId())) delivery = d;
        }
        if (delivery != null && "succeeded".equals(delivery.getStatus())) break;
      }
      Conformance.ensure(delivery != null && "succeeded".equals(delivery.getStatus()), "test delivery " + delivery);
      String deliveryId = delivery.getId();
      boolean viaEvent = false;
      for (WebhookDelivery d : plinth.events().listDeliveries(testEventId)) viaEvent |= deliveryId.equals(d.getId());
      Conformance.ensure(viaEvent, "the event's deliveries lack " + deliveryId);
      WebhookDelivery retried = plinth.webhookDeliveries().retry(deliveryId);
      Conformance.ensure(deliveryId.equals(retried.getId()), "retried " + retried.getId());
      CreatedWebhookEndpoint rotated = plinth.webhookEndpoints().rotateSecret(endpointId);
      String secret = rotated.getSecret();
      Conformance.ensure(secret.startsWith("whsec_") && !secret.equals(firstSecret), "rotated secret " + secret);
      boolean listed = false;
      for (WebhookEndpoint w : plinth.webhookEndpoints().list()) listed |= endpointId.equals(w.getId());
      Conformance.ensure(listed, "endpoint not listed");
      DeletedWebhookEndpoint gone = plinth.webhookEndpoints().delete(endpointId);
      Conformance.ensure(Boolean.TRUE.equals(gone.getDeleted()), "deleted " + gone.getDeleted());
      PlinthException e = Conformance.error(() -> plinth.webhookEndpoints().retrieve(endpointId));
      Conformance.ensure(e.getStatus() == 404 && "resource_not_found".equals(e.getCode()), "error " + e);
    });

    Conformance.steps("19 api keys: create, list, retrieve, revoke", () -> {
      CreatedApiKey k = plinth.apiKeys().create(new CreateApiKeyRequest().name("conformance"));
      String secret = k.getKey();
      Conformance.ensure(secret.startsWith("sk_test_") && "conformance".equals(k.getName()), "key " + k);
      boolean listed = false;
      for (ApiKey each : plinth.apiKeys().list()) listed |= k.getId().equals(each.getId());
      Conformance.ensure(listed, "key not listed");
      Conformance.ensure(k.getId().equals(plinth.apiKeys().retrieve(k.getId()).getId()), "retrieve");
      ApiKey revoked = plinth.apiKeys().revoke(k.getId());
      Conformance.ensure(revoked.getRevokedAt() != null, "revoked_at null");
    });
  }
}
