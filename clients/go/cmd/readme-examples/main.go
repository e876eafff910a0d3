// The README's Go examples, compiled by `go vet ./...` in conformance.sh so that an example that no longer
// compiles fails the client's test. Between the markers: written by scripts/clients/readme.ts from ../../README.md
// (edit the README, then run `node scripts/clients/readme.ts go`). Above them: what the examples use but do not
// define. Nothing here runs: main only shows the program builds.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

var (
	ctx      = context.Background()
	client   = plinth.New("sk_test_…")
	a, b, id string // account ids
	transfer = &plinthapi.Transfer{}
	secret   string // a webhook endpoint's whsec_… secret
	r        *http.Request
	w        http.ResponseWriter
	body     []byte // the raw body of r
)

var _ = []any{errors.As, fmt.Println, log.Fatal, http.Error, os.Getenv}

func main() {}

// readme-examples:start
func example1() {
	_, _, err := client.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: a, ToAccountId: b, Amount: 999999, Currency: "USD"})
	if e, ok := plinth.AsError(err); ok && e.Code == "insufficient_funds" {
		fmt.Println(e.Status, e.Param, e.RequestID) // 409 from_account_id req_…
	}
}

func example2() {
	for account, err := range client.Accounts.List(ctx, plinth.AccountListParams{Status: "frozen"}) {
		if err != nil {
			log.Fatal(err) // the first error ends the iteration
		}
		fmt.Println(account.Id)
	}
	page, _, err := client.Transfers.ListPage(ctx, plinth.TransferListParams{AccountID: id, ListParams: plinth.ListParams{Limit: 10}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page.Data), page.HasMore)
	for t, err := range client.Transactions.List(ctx, id, plinth.TransactionListParams{}) { // an account's transactions
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(t.Id, t.Amount)
	}
}

func example3() {
	refund, _, err := client.Transfers.Reverse(ctx, transfer.Id, plinthapi.CreateTransferReversalRequest{
		Amount: plinthapi.PtrInt64(1000), Description: plinthapi.PtrString("refund"),
	}) // trr_…
	if err != nil {
		log.Fatal(err)
	}
	after, _, err := client.Transfers.Retrieve(ctx, transfer.Id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(after.AmountReversed, after.Reversed) // 1000 false (true once all of it is reversed)
	for r, err := range client.Transfers.ListReversals(ctx, transfer.Id, plinth.ListParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Id, r.Amount)
	}
	one, _, err := client.Transfers.RetrieveReversal(ctx, transfer.Id, refund.Id)
	fmt.Println(one.Id == refund.Id, err) // true <nil>
}

func example4() {
	then, _, err := client.Accounts.Balances(ctx, id, plinth.BalancesParams{At: "2026-11-24T09:30:00Z"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(then.CurrentBalance.Amount, then.AvailableBalance.Amount)
	nov, _, err := client.Accounts.Statement(ctx, id, plinth.StatementParams{From: "2026-11-01T00:00Z", To: "2026-12-01T00:00Z"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(nov.ClosingBalance == nov.OpeningBalance+nov.Credits.Amount-nov.Debits.Amount) // true
}

func example5() {
	readOnly, _, err := client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{
		Name:        plinth.String("balances dashboard"),
		Permissions: &plinthapi.CreateApiKeyRequestPermissions{Accounts: plinth.String("read"), Transactions: plinth.String("read")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(readOnly.Key[:8], readOnly.Permissions.Get().Transfers) // rk_test_ none
	reader := plinth.New(readOnly.Key, plinth.WithBaseURL(os.Getenv("PLINTH_URL")))
	_, _, err = reader.Accounts.Retrieve(ctx, id)                        // allowed: accounts: read
	_, _, err = reader.Accounts.Balances(ctx, id, plinth.BalancesParams{}) // allowed: transactions: read
	_, _, err = reader.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: a, ToAccountId: b, Amount: 100, Currency: "USD"})
	fmt.Println(err) // 403 permission_denied: "This key has transfers: none; POST /v1/fintech/transfers needs transfers: write."
}

func example6() {
	event, err := plinth.VerifyWebhook(secret, r.Header, body, 0) // 0: the default tolerance, 5 minutes
	var verr *plinth.WebhookVerificationError
	if errors.As(err, &verr) {
		http.Error(w, verr.Reason, http.StatusBadRequest)
		return
	}
	fmt.Println(event.Type)
}

func example7() {
	ctx, stop := context.WithCancel(ctx) // stop() from another goroutine ends the loop too
	defer stop()
	after := int64(0) // from the oldest event still kept, then live
	for event, err := range client.Events.Stream(ctx, plinth.StreamParams{Type: "fintech.account.created", After: &after}) {
		if err != nil {
			log.Fatal(err) // a refusal: 401 (a revoked key) or 400
		}
		fmt.Println(event.Sequence, event.Type, event.Data.Object["id"])
		if event.Data.Object["id"] == a {
			break // the account we waited for
		}
	}
}

func example8() {
	checkpoint, _, err := client.Audit.RetrieveCheckpoint(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for after := int64(0); after < checkpoint.Size; {
		page, _, err := client.Audit.ListChain(ctx, plinth.ListAuditChainParams{After: after, Limit: 1000})
		if err != nil {
			log.Fatal(err)
		}
		for _, link := range page.Data {
			if after = link.Sequence; after == checkpoint.Size {
				fmt.Println(link.Hash == checkpoint.Hash) // true: the chain ends where the checkpoint says
			}
		}
	}
}
// readme-examples:end
