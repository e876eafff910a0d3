package main

// Step 23 of the conformance scenario (clients/README.md): a posted transfer reversed in part, the receiver's balance
// read at an instant between the transfer and the reversal and now, a statement around both that adds up, and a
// nickname set, read back and cleared.

import (
	"fmt"
	"maps"
	"strings"
	"time"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// splitInstant is a past instant that splits time: every write answered before the call is at or before it, every
// write sent after the call returns is after it. Stored times have millisecond precision, so it is the next
// millisecond, and the call returns once the clock has passed it (the API refuses a time in the future).
func splitInstant() string {
	at := time.Now().Truncate(time.Millisecond).Add(time.Millisecond)
	for !time.Now().After(at.Add(time.Millisecond - 1)) {
		time.Sleep(time.Millisecond)
	}
	return at.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

func reversalStep(client *plinth.Client) {
	payer := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US", Nickname: plinth.String("Operating")}))
	check(payer.Nickname.Get() != nil && *payer.Nickname.Get() == "Operating", "nickname at create: %v", payer.Nickname.Get())
	team := map[string]string{"team": "ops"}
	payee := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US", Metadata: team}))
	check(payee.Nickname.Get() == nil, "no nickname: %v", payee.Nickname.Get())
	must(client.Sandbox.Deposit(ctx, payer.Id, plinthapi.SimulateDepositRequest{Amount: 5000}))
	transfer := must(client.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: payer.Id, ToAccountId: payee.Id, Amount: 3000, Currency: "USD"}))
	check(transfer.AmountReversed == 0 && !transfer.Reversed, "new transfer: amount_reversed %d reversed %v", transfer.AmountReversed, transfer.Reversed)
	beforeReversal := splitInstant()

	reversal := must(client.Transfers.Reverse(ctx, transfer.Id, plinthapi.CreateTransferReversalRequest{Amount: plinthapi.PtrInt64(1000), Description: plinthapi.PtrString("refund")}))
	check(strings.HasPrefix(reversal.Id, "trr_") && reversal.TransferId == transfer.Id && reversal.Amount == 1000 && reversal.Currency == "USD",
		"reversal %s of %s: %d %s", reversal.Id, reversal.TransferId, reversal.Amount, reversal.Currency)
	reversed := must(client.Transfers.Retrieve(ctx, transfer.Id))
	check(reversed.AmountReversed == 1000 && !reversed.Reversed, "reversed: amount_reversed %d reversed %v", reversed.AmountReversed, reversed.Reversed)
	listed := all("the reversals", client.Transfers.ListReversals(ctx, transfer.Id, plinth.ListParams{Limit: 1}))
	check(len(listed) == 1 && listed[0].Id == reversal.Id, "the reversals: %d", len(listed))
	check(must(client.Transfers.RetrieveReversal(ctx, transfer.Id, reversal.Id)).Amount == 1000, "retrieve the reversal")

	then := must(client.Accounts.Balances(ctx, payee.Id, plinth.BalancesParams{At: beforeReversal}))
	check(then.CurrentBalance.Amount == 3000 && then.AvailableBalance.Amount == 3000,
		"balances at %s: current %d available %d", beforeReversal, then.CurrentBalance.Amount, then.AvailableBalance.Amount)
	now := must(client.Accounts.Balances(ctx, payee.Id, plinth.BalancesParams{}))
	check(now.CurrentBalance.Amount == 2000 && now.AvailableBalance.Amount == 2000, "balances now: current %d available %d", now.CurrentBalance.Amount, now.AvailableBalance.Amount)

	created, err := time.Parse("2006-01-02T15:04Z", transfer.CreatedAt)
	check(err == nil, "created_at %q: %v", transfer.CreatedAt, err)
	from := created.Add(-time.Minute).Format("2006-01-02T15:04Z")
	statement := must(client.Accounts.Statement(ctx, payee.Id, plinth.StatementParams{From: from, To: splitInstant()}))
	credits, debits := statement.Credits, statement.Debits
	check(credits.Count == 1 && credits.Amount == 3000 && debits.Count == 1 && debits.Amount == 1000, "statement totals %+v %+v", credits, debits)
	check(statement.ClosingBalance == statement.OpeningBalance+credits.Amount-debits.Amount && statement.ClosingBalance == now.CurrentBalance.Amount,
		"statement: opening %d closing %d", statement.OpeningBalance, statement.ClosingBalance)

	named := must(client.Accounts.Update(ctx, payee.Id, plinth.AccountUpdateParams{Nickname: plinth.String("Payroll")}))
	read := must(client.Accounts.Retrieve(ctx, payee.Id))
	check(read.Nickname.Get() != nil && *read.Nickname.Get() == "Payroll" && maps.Equal(named.Metadata, team), "nickname set: %v %v", read.Nickname.Get(), named.Metadata)
	cleared := must(client.Accounts.Update(ctx, payee.Id, plinth.AccountUpdateParams{Nickname: plinth.String("")}))
	check(cleared.Nickname.Get() == nil && maps.Equal(cleared.Metadata, team), "nickname cleared: %v %v", cleared.Nickname.Get(), cleared.Metadata)
	fmt.Println("ok 23 a partial reversal, balances before and after it, a statement, nicknames")
}
