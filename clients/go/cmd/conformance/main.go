// The client conformance scenario (clients/README.md), run against live servers through the public API of the
// Go client. Env: PLINTH_URL, PLINTH_PROXY_URL, PLINTH_LIMITED_URL, PLINTH_RECEIVER_URL. Prints one line per step;
// exits 1 on the first failed check. Steps 1–12 are here, 13–19 (every other resource) in resources.go, 20–21
// (pending transfers, metadata, filters) in holds.go, 22 (the request log) in request_log.go, 23 (reversals, balances
// at a moment, statements, nicknames) in reversals.go, 24 (a read-only key) in restricted.go, 25 (the event stream)
// in stream.go, 26 (payments on the sandbox clock) in payments.go, 27 (the audit chain) in audit.go.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

var ctx = context.Background()

func fail(format string, args ...any) {
	fmt.Printf("FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func check(ok bool, format string, args ...any) {
	if !ok {
		fail(format, args...)
	}
}

func must[T any](v T, _ *plinth.Response, err error) T {
	if err != nil {
		fail("unexpected error: %v", err)
	}
	return v
}

// expectError asserts err is the layer's one typed error with this status and code.
func expectError(err error, status int, code string) *plinth.Error {
	if err == nil {
		fail("expected %d %s, got success", status, code)
	}
	var pe *plinth.Error
	if !errors.As(err, &pe) {
		fail("expected *plinth.Error, got %T: %v", err, err)
	}
	check(pe.Status == status && pe.Code == code, "expected %d %s, got %d %s (%s)", status, code, pe.Status, pe.Code, pe.Detail)
	check(strings.HasPrefix(pe.RequestID, "req_"), "error request_id %q", pe.RequestID)
	return pe
}

func env(name string) string {
	v := os.Getenv(name)
	if v == "" {
		fail("%s is not set", name)
	}
	return v
}

func main() {
	base, proxyURL, limitedURL := env("PLINTH_URL"), env("PLINTH_PROXY_URL"), env("PLINTH_LIMITED_URL")
	var created []string // newest last

	// 1. Sign up for a sandbox key.
	signup := must(plinth.SignUp(ctx, base, plinthapi.SandboxSignupRequest{}))
	key := signup.ApiKey.Key // a plain string: a sign-up is never a replay
	check(strings.HasPrefix(key, "sk_test_"), "signup key %q", key)
	client := plinth.New(key, plinth.WithBaseURL(base))
	fmt.Println("ok 1 sign up: sandbox key issued")

	// 2. Create an account; the Request-Id of the success is exposed.
	acct, resp, err := client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"})
	if err != nil {
		fail("create: %v", err)
	}
	check(strings.HasPrefix(acct.Id, "acct_"), "id %q", acct.Id)
	check(acct.Status == "active", "status %q", acct.Status)
	check(acct.AvailableBalance.Amount == 0 && acct.AvailableBalance.Currency == "USD", "balance %+v", acct.AvailableBalance)
	check(strings.HasPrefix(resp.RequestID, "req_"), "Request-Id %q", resp.RequestID)
	created = append(created, acct.Id)
	first := acct.Id
	firstRequestID := resp.RequestID // step 22 finds it in the request log
	check(!resp.Replayed, "a first create marked Idempotent-Replayed")
	fmt.Printf("ok 2 create account %s (Request-Id %s)\n", acct.Id, resp.RequestID)

	// 3. Create with kyb.
	kyb := plinthapi.CreateAccountRequestKyb{Ein: "12-3456789", LegalName: "Acme Corp"}
	acct = must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US", Kyb: *plinthapi.NewNullableCreateAccountRequestKyb(&kyb)}))
	check(acct.Kyb.IsSet() && acct.Kyb.Get() != nil && acct.Kyb.Get().EinLast4 == "6789", "kyb %+v", acct.Kyb.Get())
	created = append(created, acct.Id)
	fmt.Println("ok 3 create account with kyb: ein_last4 6789")

	// 4. Retrieve.
	got := must(client.Accounts.Retrieve(ctx, first))
	check(got.Id == first, "retrieved %q", got.Id)
	fmt.Println("ok 4 retrieve account")
	second := created[1]

	// 4a. A sandbox deposit: the credit transaction.
	credit := must(client.Sandbox.Deposit(ctx, first, plinthapi.SimulateDepositRequest{Amount: 10000}))
	check(strings.HasPrefix(credit.Id, "txn_"), "transaction id %q", credit.Id)
	check(credit.Amount == 10000 && credit.BalanceAfter == 10000, "deposit amount %d balance_after %d", credit.Amount, credit.BalanceAfter)
	fmt.Println("ok 4a deposit (sandbox): 10000, balance_after 10000")

	// 4b. A transfer with the client's own Idempotency-Key: posted.
	transfer := must(client.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: first, ToAccountId: second, Amount: 2500, Currency: "USD"}))
	check(strings.HasPrefix(transfer.Id, "tr_"), "transfer id %q", transfer.Id)
	check(transfer.Status == "posted" && transfer.Amount == 2500, "transfer status %q amount %d", transfer.Status, transfer.Amount)
	fmt.Println("ok 4b transfer: 2500 USD, posted")

	// 4c. The first account's transactions, newest first, through auto-pagination.
	var moves []string
	for t, err := range client.Transactions.List(ctx, first, plinth.TransactionListParams{ListParams: plinth.ListParams{Limit: 1}}) {
		if err != nil {
			fail("transactions: %v", err)
		}
		moves = append(moves, fmt.Sprintf("%d/%d", t.Amount, t.BalanceAfter))
	}
	check(strings.Join(moves, ",") == "-2500/7500,10000/10000", "transactions (amount/balance_after) %v", moves)
	fmt.Println("ok 4c iterate the transactions: balance_after 7500 then 10000")

	// 4d. More than the balance: 409 insufficient_funds naming the side at fault.
	_, _, err = client.Transfers.Create(ctx, plinthapi.CreateTransferRequest{FromAccountId: first, ToAccountId: second, Amount: 999999, Currency: "USD"})
	funds := expectError(err, 409, "insufficient_funds")
	check(funds.Param == "from_account_id", "param %q", funds.Param)
	fmt.Println("ok 4d insufficient funds: 409, param from_account_id")

	// 5. The same Idempotency-Key and body twice: the same account.
	idemKey := fmt.Sprintf("go-conformance-%d", time.Now().UnixNano())
	body := plinthapi.CreateAccountRequest{Type: "business", Country: "US"}
	a1 := must(client.Accounts.Create(ctx, body, plinth.WithIdempotencyKey(idemKey)))
	a2, resp2, err := client.Accounts.Create(ctx, body, plinth.WithIdempotencyKey(idemKey))
	if err != nil {
		fail("replay: %v", err)
	}
	check(a1.Id == a2.Id, "replay gave %s then %s", a1.Id, a2.Id)
	check(resp2.Replayed, "second response not marked Idempotent-Replayed")
	created = append(created, a1.Id)
	fmt.Println("ok 5 idempotent replay: same id")

	// 6. The same key with another body: 422 idempotency_key_reused.
	_, _, err = client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "CA"}, plinth.WithIdempotencyKey(idemKey))
	expectError(err, 422, "idempotency_key_reused")
	fmt.Println("ok 6 key reused with another body: 422 idempotency_key_reused")

	// 7. A bad key: 401 api_key_invalid.
	bad := plinth.New("sk_test_"+strings.Repeat("A", 38), plinth.WithBaseURL(base))
	_, _, err = bad.Accounts.ListPage(ctx, plinth.AccountListParams{})
	expectError(err, 401, "api_key_invalid")
	fmt.Println("ok 7 bad key: 401 api_key_invalid")

	// 8. An unknown field, sent through the raw request mechanism: 400 parameter_unknown naming it.
	_, err = client.Raw(ctx, "POST", "/v1/fintech/accounts", map[string]any{"type": "business", "country": "US", "colour": "red"}, nil)
	pe := expectError(err, 400, "parameter_unknown")
	check(pe.Param == "colour", "param %q", pe.Param)
	check(len(pe.Errors) > 0, "errors is empty")
	fmt.Println("ok 8 unknown field: 400 parameter_unknown, param colour")

	// 9. Auto-pagination with limit=1 yields exactly what was created, newest first, once each.
	var listed []string
	for a, err := range client.Accounts.List(ctx, plinth.AccountListParams{ListParams: plinth.ListParams{Limit: 1}}) {
		if err != nil {
			fail("list: %v", err)
		}
		listed = append(listed, a.Id)
	}
	want := make([]string, len(created))
	for i, id := range created {
		want[len(created)-1-i] = id
	}
	check(strings.Join(listed, ",") == strings.Join(want, ","), "listed %v, want %v", listed, want)
	fmt.Printf("ok 9 list with limit=1: %d accounts, newest first, no duplicates\n", len(listed))

	// 10. Rate limited (2/s): six calls back to back all succeed because 429s are retried after Retry-After.
	limitedSignup := must(plinth.SignUp(ctx, limitedURL, plinthapi.SandboxSignupRequest{}))
	limited := plinth.New(limitedSignup.ApiKey.Key, plinth.WithBaseURL(limitedURL))
	retries := 0
	for i := 0; i < 6; i++ {
		_, resp, err := limited.Accounts.ListPage(ctx, plinth.AccountListParams{ListParams: plinth.ListParams{Limit: 1}})
		if err != nil {
			fail("limited call %d: %v", i+1, err)
		}
		retries += resp.Retries
	}
	check(retries >= 1, "no 429 was retried")
	fmt.Printf("ok 10 rate limit: 6 calls succeeded after %d retries honouring Retry-After\n", retries)

	// 11. Through the rewriting proxy: unknown fields, an unknown status and an unknown error code still decode.
	proxied := plinth.New(key, plinth.WithBaseURL(proxyURL))
	got = must(proxied.Accounts.Retrieve(ctx, first))
	check(got.Id == first && got.Status == "dormant", "proxied account %s status %q", got.Id, got.Status)
	page := must(proxied.Accounts.ListPage(ctx, plinth.AccountListParams{ListParams: plinth.ListParams{Limit: 100}}))
	check(len(page.Data) == len(created), "proxied list has %d accounts", len(page.Data))
	_, _, err = proxied.Accounts.Retrieve(ctx, "acct_"+strings.Repeat("0", 26))
	expectError(err, 404, "future_error_code")
	fmt.Println("ok 11 through the rewriting proxy: unknown field, status dormant, error code future_error_code")

	// 12. A webhook delivery to the test's receiver verifies with the endpoint's secret, and fails with one byte of
	// the body changed or with another secret.
	receiverURL := env("PLINTH_RECEIVER_URL")
	endpoint := must(client.WebhookEndpoints.Create(ctx, plinthapi.CreateWebhookEndpointRequest{Url: receiverURL + "/hook", EnabledEvents: []string{"*"}}))
	check(strings.HasPrefix(endpoint.Secret, "whsec_"), "secret %q", endpoint.Secret)
	event := must(client.WebhookEndpoints.Test(ctx, endpoint.Id))
	check(event.Type == "webhook_endpoint.test", "test event type %q", event.Type)
	type delivery struct {
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	}
	var got12 *delivery
	for deadline := time.Now().Add(10 * time.Second); got12 == nil && time.Now().Before(deadline); {
		resp, err := http.Get(receiverURL + "/deliveries?event=" + event.Id)
		check(err == nil, "receiver: %v", err)
		var found []delivery
		err = json.NewDecoder(resp.Body).Decode(&found)
		resp.Body.Close()
		check(err == nil, "receiver answer: %v", err)
		if len(found) > 0 {
			got12 = &found[0]
		} else {
			time.Sleep(100 * time.Millisecond)
		}
	}
	check(got12 != nil, "no delivery of %s within 10 s", event.Id)
	header := http.Header{}
	for name, value := range got12.Headers {
		header.Set(name, value)
	}
	verified, err := plinth.VerifyWebhook(endpoint.Secret, header, []byte(got12.Body), 0)
	check(err == nil, "verify: %v", err)
	check(verified.Id == event.Id && verified.Type == "webhook_endpoint.test", "verified %s %s", verified.Id, verified.Type)
	changed := []byte(got12.Body)
	i := strings.Index(got12.Body, event.Id) + 4 // a character of the id
	if changed[i] == '0' {
		changed[i] = '1'
	} else {
		changed[i] = '0'
	}
	other := "whsec_" + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x07", 32)))
	for _, wrong := range []struct {
		secret string
		body   []byte
	}{{endpoint.Secret, changed}, {other, []byte(got12.Body)}} {
		_, err := plinth.VerifyWebhook(wrong.secret, header, wrong.body, 0)
		var verr *plinth.WebhookVerificationError
		check(errors.As(err, &verr) && verr.Reason == "signature_mismatch", "a changed body or another secret: %v", err)
	}
	fmt.Println("ok 12 a webhook delivery verifies with its secret, not with a changed body or another secret")

	resourceSteps(client, earlier{first: first, second: second, transferID: transfer.Id, endpoint: endpoint, testEventID: event.Id})
	holdSteps(client, first, second)
	requestLogStep(client, firstRequestID)
	reversalStep(client)
	restrictedStep(client, base)
	streamStep(client, proxied, proxyURL)
	paymentStep(client)
	auditStep(client)

	fmt.Println("go: every step passed")
}
