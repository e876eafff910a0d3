package dev.plinth.conformance;

import static dev.plinth.conformance.ScriptedTest.check;
import static dev.plinth.conformance.ScriptedTest.client;
import static dev.plinth.conformance.ScriptedTest.test;

import dev.plinth.ListParams;
import dev.plinth.Plinth;
import dev.plinth.client.model.UpdateAccountRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** What the reversal, balance and statement methods and a nickname update send, against the scripted server. */
final class ScriptedMoney {
  private ScriptedMoney() {}

  static void run() {
    test("a reversal, its list and retrieve, balances at a moment, a statement, a nickname", () -> {
      try (ScriptedTest.Scripted s = new ScriptedTest.Scripted()) {
        Plinth p = client(s.url());
        p.transfers().reverse("tr_1");
        p.transfers().reverse("tr_1", 1000L);
        p.transfers().listReversalsPage("tr_1", new ListParams().limit(2));
        p.transfers().retrieveReversal("tr_1", "trr_1");
        p.accounts().balances("acct_1");
        p.accounts().balances("acct_1", Instant.parse("2026-11-24T09:30:00.250Z"));
        p.accounts().statement("acct_1", "2026-11-01T00:00Z", "2026-11-24T09:30:00+01:00");
        p.accounts().update("acct_1", new UpdateAccountRequest().nickname("Payroll"));
        p.accounts().update("acct_1", new UpdateAccountRequest().nickname(""));
        List<String> sent = new ArrayList<>();
        for (ScriptedTest.Seen x : s.seen) {
          sent.add(x.method + " " + x.uri + " " + x.body + ("POST".equals(x.method) && x.idempotencyKey == null ? " (no key)" : ""));
        }
        List<String> expected = List.of(
            "POST /v1/fintech/transfers/tr_1/reversals {}",
            "POST /v1/fintech/transfers/tr_1/reversals {\"amount\":1000}",
            "GET /v1/fintech/transfers/tr_1/reversals?limit=2 ",
            "GET /v1/fintech/transfers/tr_1/reversals/trr_1 ",
            "GET /v1/fintech/accounts/acct_1/balances ",
            "GET /v1/fintech/accounts/acct_1/balances?at=2026-11-24T09%3A30%3A00.250Z ",
            "GET /v1/fintech/accounts/acct_1/statement?from=2026-11-01T00%3A00Z&to=2026-11-24T09%3A30%3A00%2B01%3A00 ",
            "POST /v1/fintech/accounts/acct_1 {\"nickname\":\"Payroll\"}",
            "POST /v1/fintech/accounts/acct_1 {\"nickname\":\"\"}");
        check(sent.equals(expected), "sent " + sent);
      }
    });
  }
}
