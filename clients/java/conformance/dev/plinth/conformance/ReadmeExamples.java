package dev.plinth.conformance;

// The README's Java examples, compiled with the conformance scenario (mvn -Pconformance, build.sh) so that an
// example that no longer compiles fails the client's test. Between the markers: written by scripts/clients/readme.ts
// from ../../../../README.md (edit the README, then run `node scripts/clients/readme.ts java`); the README's imports
// are moved above. The fields are what the examples use but do not define. Nothing here runs.
import dev.plinth.*;
import dev.plinth.client.model.*;
import java.time.Instant;
import java.util.Map;

@SuppressWarnings("unused")
final class ReadmeExamples {
  static Plinth plinth;
  static String url, a, b, id, accountId, endpointId, secret, rawBody; // account ids; a delivery's secret and body
  static Transfer t, other; // a posted transfer; a pending one
  static Map<String, String> headers; // a delivery's headers

  // readme-examples:start
  static void example1() throws Exception {
    try {
      plinth.accounts().retrieve("acct_missing");
    } catch (PlinthException e) {
      System.out.println(e.getStatus() + " " + e.getCode() + " " + e.getParam() + " " + e.getErrors() + " " + e.getRequestId());
      // 404 resource_not_found null [] req_…
    }
  }

  static void example2() throws Exception {
    for (Account a : plinth.accounts().list("frozen", new ListParams().limit(100))) System.out.println(a.getId());
    AccountList page = plinth.accounts().listPage(new ListParams().limit(10).startingAfter("acct_…"));
  }

  static void example3() throws Exception {
    plinth.transfers().list(new TransferFilter().status("pending").created(new Created().gte(Instant.now().minusSeconds(86_400))));
    plinth.accounts().list(new AccountFilter().metadata("customer", "c-42"), new ListParams().limit(10));
  }

  static void example4() throws Exception {
    Transfer hold = plinth.transfers().create(new CreateTransferRequest().fromAccountId(a).toAccountId(b).amount(4000L)
        .currency("USD").pending(true).expiresInSeconds(3600).metadata(Map.of("order", "A-1")));
    hold.getStatus();                                        // "pending"; getExpiresAt() set, getPostedAmount() null
    plinth.transfers().post(hold.getId(), 2500L);            // posted 2500; the other 1500 is available to a again
    plinth.transfers().voidTransfer(other.getId()).getStatus(); // "voided": released, nothing moved
  }

  static void example5() throws Exception {
    TransferReversal r = plinth.transfers().reverse(t.getId(), 1000L); // "trr_…"; or a CreateTransferReversalRequest
    plinth.transfers().retrieve(t.getId()).getAmountReversed();      // 1000
    for (TransferReversal each : plinth.transfers().listReversals(t.getId())) System.out.println(each.getId());
    plinth.transfers().retrieveReversal(t.getId(), r.getId());
  }

  static void example6() throws Exception {
    plinth.accounts().balances(id, Instant.parse("2026-11-24T09:30:00Z")).getCurrentBalance().getAmount();
    AccountStatement s = plinth.accounts().statement(id, "2026-11-01T00:00Z", "2026-12-01T00:00Z");
    s.getOpeningBalance(); s.getCredits().getAmount(); s.getDebits().getCount(); s.getClosingBalance();
  }

  static void example7() throws Exception {
    plinth.accounts().update(accountId, Map.of("customer", "c-42", "old_ref", "")); // sets customer, removes old_ref
    plinth.transfers().clearMetadata(t.getId());                                  // removes every key
    plinth.accounts().update(accountId, new UpdateAccountRequest().nickname("Payroll")); // "" removes it; .metadata(…) too
    plinth.webhookEndpoints().update(endpointId, new UpdateWebhookEndpointRequest().metadata(Metadata.changes(Map.of("team", "payments"))));
  }

  static void example8() throws Exception {
    CreatedApiKey k = plinth.apiKeys().create(null, "Reporting", Map.of("accounts", "read", "transactions", "read"));
    k.getKey();                            // "rk_test_…"
    k.getPermissions().getTransfers();     // "none"; getPermissions() is null for a full key (sk_…)
    Plinth reader = Plinth.builder().apiKey(k.getKey()).baseUrl(url).build();
    reader.accounts().balances(accountId); // allowed: accounts: read
    reader.transfers().create(new CreateTransferRequest().fromAccountId(a).toAccountId(b).amount(100L).currency("USD"));
    // PlinthException 403 permission_denied: nothing moved
  }

  static void example9() throws Exception {
    Event event = Webhook.verify(secret, headers, rawBody); // or (…, tolerance, now); throws Webhook.VerificationException
  }

  static void example10() throws Exception {
    // From the oldest account still kept, then live; close() or the end of the block stops it.
    try (EventStream events = plinth.events().stream(new EventStream.Params().type("fintech.account.created").after(0L))) {
      for (Event event : events) {
        System.out.println(event.getSequence() + " " + event.getType() + " " + event.getData().getObject().get("id"));
        if (a.equals(event.getData().getObject().get("id"))) break; // the account we waited for
      }
    }
  }

  static void example11() throws Exception {
    var checkpoint = plinth.audit().retrieveCheckpoint();
    for (long after = 0; after < checkpoint.getSize(); ) {
      for (var link : plinth.audit().listChain(after, 1000).getData()) {
        after = link.getSequence();
        if (after == checkpoint.getSize()) System.out.println(link.getHash().equals(checkpoint.getHash())); // true
      }
    }
  }
  // readme-examples:end
}
