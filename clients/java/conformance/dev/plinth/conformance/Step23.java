package dev.plinth.conformance;

import dev.plinth.Plinth;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.AccountBalances;
import dev.plinth.client.model.AccountStatement;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.SimulateDepositRequest;
import dev.plinth.client.model.Transfer;
import dev.plinth.client.model.TransferReversal;
import dev.plinth.client.model.UpdateAccountRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Step 23 of the scenario: a reversal, the balances at a moment before it, a statement around it, and a nickname.
 * The moments are RFC 3339 instants read from this machine's clock, which the server shares, a few milliseconds
 * apart from each write, so which side of a moment each movement falls on never depends on the minute.
 */
final class Step23 {
  private Step23() {}

  /** Now, to the millisecond (what the server stores), after a pause that puts it strictly after the last write. */
  private static Instant moment() throws InterruptedException {
    Thread.sleep(5);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    Thread.sleep(5);
    return now;
  }

  static void run(Plinth plinth) {
    Conformance.steps("23 reverse part of a transfer; balances before it, a statement around it; a nickname", () -> {
      Instant start = Instant.now().minus(Duration.ofMinutes(1));
      String a = plinth.accounts().create(Conformance.businessUS().nickname("Operating")).getId();
      String b = plinth.accounts().create(Conformance.businessUS()).getId();
      plinth.sandbox().deposit(a, new SimulateDepositRequest().amount(10000L));
      Transfer t = plinth.transfers().create(new CreateTransferRequest()
          .fromAccountId(a).toAccountId(b).amount(3000L).currency("USD"));
      Instant before = moment();
      TransferReversal r = plinth.transfers().reverse(t.getId(), 1000L);
      Conformance.ensure(r.getId().startsWith("trr_") && r.getAmount() == 1000L && t.getId().equals(r.getTransferId()),
          "reversal " + r.getId() + " " + r.getAmount() + " of " + r.getTransferId());
      Transfer after = plinth.transfers().retrieve(t.getId());
      Conformance.ensure(after.getAmountReversed() == 1000L && !after.getReversed(),
          "amount_reversed " + after.getAmountReversed() + ", reversed " + after.getReversed());
      List<String> listed = new ArrayList<>();
      for (TransferReversal each : plinth.transfers().listReversals(t.getId())) listed.add(each.getId());
      Conformance.ensure(listed.equals(List.of(r.getId())), "reversals " + listed);
      TransferReversal again = plinth.transfers().retrieveReversal(t.getId(), r.getId());
      Conformance.ensure(r.getId().equals(again.getId()) && again.getAmount() == 1000L, "retrieved " + again.getId());

      AccountBalances then = plinth.accounts().balances(b, before);
      AccountBalances now = plinth.accounts().balances(b);
      Conformance.ensure(then.getCurrentBalance().getAmount() == 3000L, "at " + before + ": " + then.getCurrentBalance());
      Conformance.ensure(now.getCurrentBalance().getAmount() == 2000L && now.getAvailableBalance().getAmount() == 2000L,
          "now: " + now.getCurrentBalance() + " " + now.getAvailableBalance());

      AccountStatement s = plinth.accounts().statement(b, start, moment());
      long opening = s.getOpeningBalance();
      long closing = s.getClosingBalance();
      Conformance.ensure(closing == opening + s.getCredits().getAmount() - s.getDebits().getAmount(),
          "closing " + closing + " != opening " + opening + " + " + s.getCredits() + " - " + s.getDebits());
      Conformance.ensure(opening == 0 && closing == 2000L && s.getCredits().getCount() == 1
          && s.getDebits().getCount() == 1 && s.getDebits().getAmount() == 1000L, "statement " + s);

      Account named = plinth.accounts().update(b, new UpdateAccountRequest().nickname("Payroll"));
      Conformance.ensure("Payroll".equals(named.getNickname()), "nickname " + named.getNickname());
      Conformance.ensure("Payroll".equals(plinth.accounts().retrieve(b).getNickname()), "nickname not read back");
      Conformance.ensure("Operating".equals(plinth.accounts().retrieve(a).getNickname()), "the nickname given at create");
      Account cleared = plinth.accounts().update(b, new UpdateAccountRequest().nickname(""));
      Conformance.ensure(cleared.getNickname() == null, "cleared nickname " + cleared.getNickname());
    });
  }
}
