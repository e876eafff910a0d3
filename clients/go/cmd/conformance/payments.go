package main

// Step 26 of the conformance scenario (clients/README.md): money in and out over the rails on the sandbox clock. An
// inbound ACH credit of 100 to a new account number, an ACH payment of 60 out (held at once: available −60, current
// unchanged), the clock advanced to the next business day after settlement (settled), a rule that returns it R01
// two days after settlement, the clock advanced again (returned, with a reversal of its transfer), and a statement
// that adds up. It runs last: it moves the organisation's clock days ahead.

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// afterNextSettlement is 15:00 UTC on the first weekday after now: after that day's 09:00 New York settlement,
// before its cut-off, so that every run sees the same outcome.
func afterNextSettlement(now string) string {
	at, err := time.Parse(time.RFC3339Nano, now)
	check(err == nil, "clock now %q: %v", now, err)
	for at = at.AddDate(0, 0, 1); at.Weekday() == time.Saturday || at.Weekday() == time.Sunday; at = at.AddDate(0, 0, 1) {
	}
	return at.UTC().Format("2006-01-02") + "T15:00Z"
}

func paymentStep(client *plinth.Client) {
	account := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"}))
	number := must(client.AccountNumbers.Create(ctx, plinthapi.CreateAccountNumberRequest{AccountId: account.Id, Name: plinthapi.PtrString("Main")}))
	check(regexp.MustCompile(`^[0-9]{12}$`).MatchString(number.Number) && !number.Replayed, "account number %q", number.Number)
	check(must(client.AccountNumbers.Retrieve(ctx, number.Id)).AccountNumber.Get() == nil, "the number shown again")
	balances := func() [2]int64 {
		a := must(client.Accounts.Retrieve(ctx, account.Id))
		return [2]int64{a.CurrentBalance.Amount, a.AvailableBalance.Amount}
	}
	start := must(client.Sandbox.RetrieveClock(ctx)).Now

	inbound := must(client.Sandbox.InboundPayment(ctx, plinthapi.SimulateInboundPaymentRequest{
		AccountNumber: number.Number, Amount: 100, Rail: "ach", Direction: "credit", OriginatorName: "Globex Corporation",
	}))
	check(inbound.Status == "settled" && inbound.Direction == "inbound" && inbound.AccountNumberId.Get() != nil && *inbound.AccountNumberId.Get() == number.Id,
		"inbound payment: %s %s", inbound.Status, inbound.Direction)
	check(balances() == [2]int64{100, 100}, "after the inbound credit: %v", balances())

	// A weekday morning first, so that the cut-off and the settlement are the same in every run.
	must(client.Sandbox.AdvanceClock(ctx, plinthapi.AdvanceSandboxClockRequest{To: afterNextSettlement(start)}))
	external := must(client.ExternalAccounts.Create(ctx, plinthapi.CreateExternalAccountRequest{
		RoutingNumber: "021000021", AccountNumber: "000123456789", AccountHolderName: "Acme Supplies LLC", AccountType: "checking",
	}))
	payment := must(client.Payments.Create(ctx, plinthapi.CreatePaymentRequest{
		AccountId: account.Id, ExternalAccountId: external.Id, Amount: 60, Currency: "USD", Rail: "ach",
	}))
	check(payment.Status == "pending_submission", "new payment: %s", payment.Status)
	check(balances() == [2]int64{100, 40}, "held at once (available −60, current unchanged): %v", balances())

	settledAt := afterNextSettlement(must(client.Sandbox.RetrieveClock(ctx)).Now)
	clock := must(client.Sandbox.AdvanceClock(ctx, plinthapi.AdvanceSandboxClockRequest{To: settledAt}))
	check(strings.HasPrefix(clock.Now, strings.TrimSuffix(settledAt, "Z")), "clock %s, asked %s", clock.Now, settledAt)
	check(must(client.Payments.Retrieve(ctx, payment.Id)).Status == "settled", "settled on the next business day")
	check(balances() == [2]int64{40, 40}, "after settlement: %v", balances())

	action := plinthapi.CreatePaymentRuleRequestAction{Return: plinthapi.PtrString("R01"), At: plinthapi.PtrString("P2D")}
	rule := must(client.Sandbox.CreatePaymentRule(ctx, plinthapi.CreatePaymentRuleRequest{
		Match: plinthapi.CreatePaymentRuleRequestMatch{Amount: plinthapi.PtrInt64(60)}, Action: action,
	}))
	check(strings.HasPrefix(rule.Id, "prule_"), "rule %s", rule.Id)
	settled, _ := time.Parse("2006-01-02T15:04Z", settledAt)
	must(client.Sandbox.AdvanceClock(ctx, plinthapi.AdvanceSandboxClockRequest{To: settled.AddDate(0, 0, 3).Format("2006-01-02T15:04Z")}))
	returned := must(client.Payments.Retrieve(ctx, payment.Id))
	reason := returned.ReturnReason.Get()
	check(returned.Status == "returned" && reason != nil && reason.Code == "R01", "returned: %s %+v", returned.Status, reason)
	reversals := all("the reversals", client.Transfers.ListReversals(ctx, *payment.TransferId.Get(), plinth.ListParams{}))
	check(len(reversals) == 1 && reversals[0].Description.Get() != nil && strings.HasPrefix(*reversals[0].Description.Get(), "R01"),
		"reversals of the payment's transfer: %d", len(reversals))
	check(balances() == [2]int64{100, 100}, "after the return: %v", balances())

	to := must(client.Sandbox.RetrieveClock(ctx)).Now
	statement := must(client.Accounts.Statement(ctx, account.Id, plinth.StatementParams{From: start, To: to}))
	check(statement.ClosingBalance == statement.OpeningBalance+statement.Credits.Amount-statement.Debits.Amount && statement.ClosingBalance == 100,
		"statement: opening %d credits %d debits %d closing %d", statement.OpeningBalance, statement.Credits.Amount, statement.Debits.Amount, statement.ClosingBalance)
	fmt.Println("ok 26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule")
}
