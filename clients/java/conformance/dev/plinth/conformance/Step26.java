package dev.plinth.conformance;

import dev.plinth.CreatedAccountNumber;
import dev.plinth.Plinth;
import dev.plinth.client.model.AccountStatement;
import dev.plinth.client.model.AdvanceSandboxClockRequest;
import dev.plinth.client.model.CreateAccountNumberRequest;
import dev.plinth.client.model.CreateExternalAccountRequest;
import dev.plinth.client.model.CreatePaymentRequest;
import dev.plinth.client.model.CreatePaymentRuleRequest;
import dev.plinth.client.model.CreatePaymentRuleRequestAction;
import dev.plinth.client.model.CreatePaymentRuleRequestMatch;
import dev.plinth.client.model.Payment;
import dev.plinth.client.model.PaymentRule;
import dev.plinth.client.model.SimulateInboundPaymentRequest;
import dev.plinth.client.model.TransferReversal;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Step 26 of the scenario: money in and out over the rails on the sandbox clock. An inbound ACH credit of 100 to a
 * new account number, an ACH payment of 60 out (held at once: available −60, current unchanged), the clock advanced
 * to the next business day after settlement (settled), a rule that returns it R01 two days after settlement, the
 * clock advanced again (returned, with a reversal of its transfer), and a statement that adds up. It runs last: it
 * moves the organisation's clock days ahead.
 */
final class Step26 {
  private Step26() {}

  /** 15:00 UTC on the first weekday after {@code now}: after 09:00 New York settlement, before the cut-off. */
  static String afterNextSettlement(String now) {
    LocalDate day = Instant.parse(now).atZone(ZoneOffset.UTC).toLocalDate().plusDays(1);
    while (day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY) day = day.plusDays(1);
    return day + "T15:00Z";
  }

  private static List<Long> balances(Plinth plinth, String account) {
    var a = plinth.accounts().retrieve(account);
    return List.of(a.getCurrentBalance().getAmount(), a.getAvailableBalance().getAmount());
  }

  static void run(Plinth plinth) {
    Conformance.steps("26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule", () -> {
      String account = plinth.accounts().create(Conformance.businessUS()).getId();
      CreatedAccountNumber number =
          plinth.accountNumbers().create(new CreateAccountNumberRequest().accountId(account).name("Main"));
      Conformance.ensure(number.getAccountNumber().matches("[0-9]{12}") && !number.isReplayed(), "number " + number);
      Conformance.ensure(plinth.accountNumbers().retrieve(number.getId()).getAccountNumber() == null, "shown again");
      String start = plinth.sandbox().retrieveClock().getNow();

      Payment inbound = plinth.sandbox().inboundPayment(new SimulateInboundPaymentRequest()
          .accountNumber(number.getAccountNumber()).amount(100L).rail(SimulateInboundPaymentRequest.RailEnum.ACH)
          .direction(SimulateInboundPaymentRequest.DirectionEnum.CREDIT).originatorName("Globex Corporation"));
      Conformance.ensure("settled".equals(inbound.getStatus()) && "inbound".equals(inbound.getDirection())
          && number.getId().equals(inbound.getAccountNumberId()), "inbound " + inbound.getStatus());
      Conformance.ensure(balances(plinth, account).equals(List.of(100L, 100L)), "after the inbound credit");

      // A weekday morning first, so that the cut-off and the settlement are the same in every run.
      plinth.sandbox().advanceClock(new AdvanceSandboxClockRequest().to(afterNextSettlement(start)));
      String external = plinth.externalAccounts().create(new CreateExternalAccountRequest()
          .routingNumber("021000021").accountNumber("000123456789").accountHolderName("Acme Supplies LLC")
          .accountType(CreateExternalAccountRequest.AccountTypeEnum.CHECKING)).getId();
      Payment payment = plinth.payments().create(new CreatePaymentRequest().accountId(account)
          .externalAccountId(external).amount(60L).currency(CreatePaymentRequest.CurrencyEnum.USD)
          .rail(CreatePaymentRequest.RailEnum.ACH));
      Conformance.ensure("pending_submission".equals(payment.getStatus()), "new payment " + payment.getStatus());
      Conformance.ensure(balances(plinth, account).equals(List.of(100L, 40L)), "held: " + balances(plinth, account));

      String settledAt = afterNextSettlement(plinth.sandbox().retrieveClock().getNow());
      String now = plinth.sandbox().advanceClock(new AdvanceSandboxClockRequest().to(settledAt)).getNow();
      Conformance.ensure(now.startsWith(settledAt.replace("Z", "")), "clock " + now + ", asked " + settledAt);
      Conformance.ensure("settled".equals(plinth.payments().retrieve(payment.getId()).getStatus()), "not settled");
      Conformance.ensure(balances(plinth, account).equals(List.of(40L, 40L)), "settled: " + balances(plinth, account));

      CreatePaymentRuleRequestAction action = new CreatePaymentRuleRequestAction()
          ._return(CreatePaymentRuleRequestAction.ReturnEnum.R01).at("P2D");
      PaymentRule rule = plinth.sandbox().createPaymentRule(new CreatePaymentRuleRequest()
          .match(new CreatePaymentRuleRequestMatch().amount(60L)).action(action));
      Conformance.ensure(rule.getId().startsWith("prule_"), "rule " + rule.getId());
      String later = Instant.parse(now).plusSeconds(3 * 86_400).toString();
      plinth.sandbox().advanceClock(new AdvanceSandboxClockRequest().to(later));
      Payment returned = plinth.payments().retrieve(payment.getId());
      Conformance.ensure("returned".equals(returned.getStatus()) && returned.getReturnReason() != null
          && "R01".equals(returned.getReturnReason().getCode()), "returned " + returned.getStatus());
      List<TransferReversal> reversals = new ArrayList<>();
      for (TransferReversal r : plinth.transfers().listReversals(payment.getTransferId())) reversals.add(r);
      Conformance.ensure(reversals.size() == 1 && reversals.get(0).getDescription().startsWith("R01"),
          "reversals " + reversals.size());
      Conformance.ensure(balances(plinth, account).equals(List.of(100L, 100L)), "after the return");

      AccountStatement s = plinth.accounts().statement(account, start, plinth.sandbox().retrieveClock().getNow());
      long opening = s.getOpeningBalance();
      long closing = s.getClosingBalance();
      Conformance.ensure(closing == opening + s.getCredits().getAmount() - s.getDebits().getAmount() && closing == 100L,
          "statement " + s);
    });
  }
}
