package main

// Steps 20–21 of the conformance scenario (clients/README.md): money held before it moves (pending transfers posted
// in part, voided, expired) and the integrator's own references (metadata) with the list filters, sent as
// metadata[key]=value and created[gte]=…, which the server must understand for the filtered lists to come back
// exactly as checked.

import (
	"fmt"
	"maps"
	"slices"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

func holdSteps(client *plinth.Client, first, second string) {
	pending := func(amount int64, metadata map[string]string, expiresIn *int32) *plinthapi.Transfer {
		return must(client.Transfers.Create(ctx, plinthapi.CreateTransferRequest{
			FromAccountId: first, ToAccountId: second, Amount: amount, Currency: "USD",
			Pending: plinthapi.PtrBool(true), ExpiresInSeconds: expiresIn, Metadata: metadata,
		}))
	}

	// 20. Hold, post part, void, expire.
	had := must(client.Accounts.Retrieve(ctx, first)).CurrentBalance.Amount
	must(client.Sandbox.Deposit(ctx, first, plinthapi.SimulateDepositRequest{Amount: 10000}))
	hold := pending(4000, map[string]string{"order": "A-1"}, plinthapi.PtrInt32(3600))
	check(hold.Status == "pending" && hold.ExpiresAt.Get() != nil && hold.PostedAmount.Get() == nil,
		"pending transfer: status %q expires_at %v posted_amount %v", hold.Status, hold.ExpiresAt.Get(), hold.PostedAmount.Get())
	holding := must(client.Accounts.Retrieve(ctx, first))
	check(holding.CurrentBalance.Amount == had+10000 && holding.AvailableBalance.Amount == had+10000-4000,
		"while held: current %d available %d (had %d)", holding.CurrentBalance.Amount, holding.AvailableBalance.Amount, had)
	posted := must(client.Transfers.Post(ctx, hold.Id, plinthapi.PostTransferRequest{Amount: plinthapi.PtrInt64(2500)}))
	check(posted.Status == "posted" && posted.PostedAmount.Get() != nil && *posted.PostedAmount.Get() == 2500,
		"posted: status %q posted_amount %v", posted.Status, posted.PostedAmount.Get())
	after := must(client.Accounts.Retrieve(ctx, first))
	check(after.AvailableBalance.Amount == after.CurrentBalance.Amount && after.CurrentBalance.Amount == had+10000-2500,
		"after posting: current %d available %d", after.CurrentBalance.Amount, after.AvailableBalance.Amount)
	voidable := pending(1000, nil, nil)
	check(must(client.Transfers.Void(ctx, voidable.Id)).Status == "voided", "not voided")
	_, _, err := client.Transfers.Post(ctx, voidable.Id, plinthapi.PostTransferRequest{})
	expectError(err, 409, "transfer_not_pending")
	lapsing := pending(500, nil, nil)
	check(must(client.Sandbox.ExpireTransfer(ctx, lapsing.Id)).Status == "expired", "not expired")
	_, _, err = client.Transfers.Post(ctx, lapsing.Id, plinthapi.PostTransferRequest{})
	expectError(err, 409, "transfer_expired")
	fmt.Println("ok 20 pending transfers: hold, post part, void, expire")

	// 21. Metadata and the filters.
	customer := map[string]string{"customer": "c-42"}
	tagged := must(client.Accounts.Update(ctx, first, plinth.AccountUpdateParams{Metadata: customer}))
	check(maps.Equal(tagged.Metadata, customer), "account metadata %v", tagged.Metadata)
	customers := all("accounts by metadata", client.Accounts.List(ctx, plinth.AccountListParams{Metadata: customer}))
	check(len(customers) == 1 && customers[0].Id == first, "accounts by metadata: %d", len(customers))
	held := []string{hold.Id, voidable.Id, lapsing.Id}
	for _, t := range all("pending transfers", client.Transfers.List(ctx, plinth.TransferListParams{Status: "pending"})) {
		check(!slices.Contains(held, t.Id), "%s is still listed as pending", t.Id)
	}
	orders := all("transfers by metadata", client.Transfers.List(ctx, plinth.TransferListParams{Metadata: map[string]string{"order": "A-1"}}))
	check(len(orders) == 1 && orders[0].Id == hold.Id, "transfers by metadata: %d", len(orders))
	untagged := must(client.Transfers.Update(ctx, hold.Id, plinth.TransferUpdateParams{Metadata: map[string]string{"order": ""}}))
	check(untagged.Metadata != nil && len(untagged.Metadata) == 0, "transfer metadata %v", untagged.Metadata)
	since := must(client.Accounts.Retrieve(ctx, first)).CreatedAt
	events := all("events since", client.Events.List(ctx, plinth.EventListParams{Created: plinth.CreatedFilter{Gte: since}, ListParams: plinth.ListParams{Limit: 100}}))
	check(len(events) >= 1, "no event since %s", since)
	fmt.Println("ok 21 metadata and filters: update, list by metadata, status and created")
}
