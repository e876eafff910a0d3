package main

// Step 24 of the conformance scenario (clients/README.md): a read-only restricted key reads an account and its
// balances, and its attempt to move money is refused with 403 permission_denied before anything moves.

import (
	"fmt"
	"strings"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

func restrictedStep(client *plinth.Client, base string) {
	from := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"}))
	to := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"}))
	must(client.Sandbox.Deposit(ctx, from.Id, plinthapi.SimulateDepositRequest{Amount: 1000}))

	readOnly := must(client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{
		Name:        plinthapi.PtrString("read-only"),
		Permissions: &plinthapi.CreateApiKeyRequestPermissions{Accounts: plinth.String("read"), Transactions: plinth.String("read")},
	}))
	check(strings.HasPrefix(readOnly.Key, "rk_test_"), "restricted key %q…", readOnly.Key[:min(8, len(readOnly.Key))])
	granted := readOnly.Permissions.Get()
	check(granted != nil && granted.Accounts == "read" && granted.Transactions == "read" && granted.Transfers == "none" &&
		granted.ApiKeys == "none", "the new key's permissions: %+v", granted)
	listed := must(client.APIKeys.Retrieve(ctx, readOnly.Id)).Permissions.Get()
	check(listed != nil && listed.Accounts == "read" && listed.Sandbox == "none", "the key object's permissions: %+v", listed)

	reader := plinth.New(readOnly.Key, plinth.WithBaseURL(base))
	check(must(reader.Accounts.Retrieve(ctx, from.Id)).Id == from.Id, "the read-only key reads another account")
	seen := must(reader.Accounts.Balances(ctx, from.Id, plinth.BalancesParams{}))
	check(seen.CurrentBalance.Amount == 1000, "the read-only key sees a balance of %d", seen.CurrentBalance.Amount)
	_, _, err := reader.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: from.Id, ToAccountId: to.Id, Amount: 100, Currency: "USD"})
	expectError(err, 403, "permission_denied")

	after := must(client.Accounts.Balances(ctx, from.Id, plinth.BalancesParams{}))
	check(after.CurrentBalance.Amount == 1000 && after.AvailableBalance.Amount == 1000, "money moved: %d", after.CurrentBalance.Amount)
	check(must(client.Accounts.Balances(ctx, to.Id, plinth.BalancesParams{})).CurrentBalance.Amount == 0, "money arrived")
	fmt.Println("ok 24 a read-only key reads an account and its balances, and may not move money")
}
