package main

// Steps 13–19 of the conformance scenario (clients/README.md): every other resource, through the layer's methods
// only — freeze, unfreeze and close, a withdrawal, transfers by account, events, the rest of a webhook endpoint's
// life and its deliveries, API keys.

import (
	"fmt"
	"iter"
	"strings"
	"time"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// What steps 13–19 need from the earlier ones.
type earlier struct {
	first, second string                            // the accounts of steps 2 and 3
	transferID    string                            // step 4b's, first → second
	endpoint      *plinth.WebhookEndpointWithSecret // step 12's
	testEventID   string
}

// all collects an iteration, failing the run on its error.
func all[T any](what string, items iter.Seq2[*T, error]) []*T {
	var found []*T
	for item, err := range items {
		if err != nil {
			fail("%s: %v", what, err)
		}
		found = append(found, item)
	}
	return found
}

func resourceSteps(client *plinth.Client, e earlier) {
	// 13. Freeze, list frozen, a transfer to it refused, unfreeze.
	frozen := must(client.Accounts.Freeze(ctx, e.second, plinthapi.FreezeAccountRequest{Reason: "compliance_review", Note: plinthapi.PtrString("conformance")}))
	check(frozen.Status == "frozen", "status %q", frozen.Status)
	details := frozen.StatusDetails.Get()
	check(details != nil && details.Reason == "compliance_review", "status_details %+v", details)
	listed := all("frozen accounts", client.Accounts.List(ctx, plinth.AccountListParams{Status: "frozen"}))
	check(len(listed) == 1 && listed[0].Id == e.second, "frozen accounts %d", len(listed))
	_, _, err := client.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: e.first, ToAccountId: e.second, Amount: 1, Currency: "USD"})
	frozenErr := expectError(err, 409, "account_frozen")
	check(frozenErr.Param == "to_account_id", "param %q", frozenErr.Param)
	active := must(client.Accounts.Unfreeze(ctx, e.second))
	check(active.Status == "active" && active.StatusDetails.Get() == nil, "unfrozen %q %+v", active.Status, active.StatusDetails.Get())
	fmt.Println("ok 13 freeze, list frozen, a transfer to it refused (409 account_frozen), unfreeze")

	// 14. A sandbox withdrawal.
	debit := must(client.Sandbox.Withdraw(ctx, e.first, plinthapi.SimulateWithdrawalRequest{Amount: 500}))
	check(debit.Amount == -500 && debit.BalanceAfter == 7000, "withdrawal amount %d balance_after %d", debit.Amount, debit.BalanceAfter)
	fmt.Println("ok 14 withdraw (sandbox): -500, balance_after 7000")

	// 15. The second account's transfers: exactly step 4b's.
	transfers := all("transfers", client.Transfers.List(ctx, plinth.TransferListParams{AccountID: e.second}))
	check(len(transfers) == 1 && transfers[0].Id == e.transferID, "transfers of the second account: %d", len(transfers))
	transfer := must(client.Transfers.Retrieve(ctx, e.transferID))
	check(transfer.Id == e.transferID && transfer.ToAccountId == e.second, "retrieved transfer %s", transfer.Id)
	fmt.Println("ok 15 transfers of an account")

	// 16. Close a third account; a deposit to it is refused.
	third := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"}))
	closed := must(client.Accounts.Close(ctx, third.Id, plinthapi.CloseAccountRequest{Reason: plinthapi.PtrString("customer_request")}))
	check(closed.Status == "closed" && closed.ClosedAt.Get() != nil, "closed %q at %v", closed.Status, closed.ClosedAt.Get())
	_, _, err = client.Sandbox.Deposit(ctx, third.Id, plinthapi.SimulateDepositRequest{Amount: 1})
	expectError(err, 409, "account_closed")
	fmt.Println("ok 16 close an account; a deposit to it refused (409 account_closed)")

	// 17. Events of one type, newest first; retrieve the first.
	events := all("events", client.Events.List(ctx, plinth.EventListParams{Type: "fintech.account.created", ListParams: plinth.ListParams{Limit: 2}}))
	check(len(events) >= 3, "%d fintech.account.created events", len(events))
	for i, event := range events {
		check(event.Type == "fintech.account.created", "event type %q", event.Type)
		check(i == 0 || event.Sequence < events[i-1].Sequence, "sequences not decreasing at %d", i)
	}
	again := must(client.Events.Retrieve(ctx, events[0].Id))
	check(again.Id == events[0].Id && again.Sequence == events[0].Sequence, "retrieved event %s", again.Id)
	fmt.Printf("ok 17 events by type: %d, newest first; retrieve one\n", len(events))

	// 18. The rest of the endpoint's life and its deliveries.
	id := e.endpoint.Id
	updated := must(client.WebhookEndpoints.Update(ctx, id, plinthapi.UpdateWebhookEndpointRequest{Description: *plinthapi.NewNullableString(plinthapi.PtrString("updated"))}))
	check(updated.Description.Get() != nil && *updated.Description.Get() == "updated", "description %v", updated.Description.Get())
	// The receiver has the delivery (step 12); the server marks it succeeded once the answer is in.
	var delivery *plinthapi.WebhookDelivery
	for deadline := time.Now().Add(10 * time.Second); delivery == nil && time.Now().Before(deadline); {
		for _, d := range all("endpoint deliveries", client.WebhookEndpoints.ListDeliveries(ctx, id, plinth.DeliveryListParams{})) {
			if d.EventId == e.testEventID && d.Status == "succeeded" {
				delivery = d
			}
		}
		if delivery == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	check(delivery != nil, "no succeeded delivery of %s within 10 s", e.testEventID)
	found := false
	for _, d := range all("event deliveries", client.Events.ListDeliveries(ctx, e.testEventID, plinth.ListParams{})) {
		found = found || d.Id == delivery.Id
	}
	check(found, "the event's deliveries do not include %s", delivery.Id)
	retried := must(client.WebhookDeliveries.Retry(ctx, delivery.Id))
	check(retried.Id == delivery.Id, "retried %s", retried.Id)
	rotated := must(client.WebhookEndpoints.RotateSecret(ctx, id, plinthapi.RotateWebhookEndpointSecretRequest{}))
	check(strings.HasPrefix(rotated.Secret, "whsec_") && rotated.Secret != e.endpoint.Secret, "rotated secret %q", rotated.Secret)
	listedEndpoint := false
	for _, endpoint := range all("endpoints", client.WebhookEndpoints.List(ctx, plinth.ListParams{})) {
		listedEndpoint = listedEndpoint || endpoint.Id == id
	}
	check(listedEndpoint, "the endpoint is not listed")
	deleted := must(client.WebhookEndpoints.Delete(ctx, id))
	check(deleted.Deleted, "not deleted")
	_, _, err = client.WebhookEndpoints.Retrieve(ctx, id)
	expectError(err, 404, "resource_not_found")
	fmt.Println("ok 18 update, deliveries, retry, rotate, list and delete a webhook endpoint")

	// 19. An API key's life.
	created := must(client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{Name: plinthapi.PtrString("conformance")}))
	check(strings.HasPrefix(created.Key, "sk_test_") && !created.Replayed, "new key %q…", created.Key[:min(8, len(created.Key))])
	check(created.Name.Get() != nil && *created.Name.Get() == "conformance", "key name %v", created.Name.Get())
	listedKey := false
	for _, k := range all("keys", client.APIKeys.List(ctx, plinth.ListParams{})) {
		listedKey = listedKey || k.Id == created.Id
	}
	check(listedKey, "the key is not listed")
	check(must(client.APIKeys.Retrieve(ctx, created.Id)).Id == created.Id, "retrieved another key")
	revoked := must(client.APIKeys.Revoke(ctx, created.Id))
	check(revoked.RevokedAt.Get() != nil, "revoked_at not set")
	fmt.Println("ok 19 create, list, retrieve and revoke an API key")
}
