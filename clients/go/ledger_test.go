package plinth

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// Reversals, balances at a moment, statements and nicknames on the wire: each method's path, query and body, and
// an Idempotency-Key on the POSTs only. Expected forms written by hand from docs/api.md#correcting-a-transfer and
// docs/api.md#balances-over-time-and-statements.
func TestReversalsBalancesAndStatementsOnTheWire(t *testing.T) {
	var mu sync.Mutex
	var seen []string // method, path?query, body, whether it had a key
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		keyed := map[bool]string{true: "key", false: "-"}[r.Header.Get("Idempotency-Key") != ""]
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+strings.TrimSpace(string(body))+" "+keyed)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/reversals") && r.Method == http.MethodGet:
			w.Write([]byte(`{"object":"list","data":[` + reversalJSON + `],"has_more":false}`))
		case strings.Contains(r.URL.Path, "/reversals"):
			w.Write([]byte(reversalJSON))
		case strings.HasSuffix(r.URL.Path, "/balances"):
			w.Write([]byte(`{"object":"fintech.balances","account_id":"acct_1","at":"2026-11-25T09:30Z","current_balance":` + usd +
				`,"available_balance":` + usd + `,"last_transaction_id":null,"livemode":false}`))
		case strings.HasSuffix(r.URL.Path, "/statement"):
			w.Write([]byte(`{"object":"fintech.statement","account_id":"acct_1","currency":"USD","from":"2026-11-01T00:00Z",` +
				`"to":"2026-11-25T00:00Z","opening_balance":0,"closing_balance":0,"credits":{"count":0,"amount":0},` +
				`"debits":{"count":0,"amount":0},"livemode":false}`))
		default:
			account(w)
		}
	}))
	defer srv.Close()
	client := fastClient(srv.URL)
	ctx := context.Background()

	errs := []error{}
	keep := func(_ any, _ *Response, err error) { errs = append(errs, err) }
	keep(client.Transfers.Reverse(ctx, "tr_1", plinthapi.CreateTransferReversalRequest{Amount: plinthapi.PtrInt64(1000), Description: plinthapi.PtrString("refund")}))
	for _, err := range client.Transfers.ListReversals(ctx, "tr_1", ListParams{Limit: 2, StartingAfter: "trr_9"}) {
		errs = append(errs, err)
	}
	keep(client.Transfers.RetrieveReversal(ctx, "tr_1", "trr_1"))
	keep(client.Accounts.Balances(ctx, "acct_1", BalancesParams{}))
	keep(client.Accounts.Balances(ctx, "acct_1", BalancesParams{At: "2026-11-25T09:30:05.007+01:00"}))
	keep(client.Accounts.Statement(ctx, "acct_1", StatementParams{From: "2026-11-01T00:00Z", To: "2026-11-25T00:00Z"}))
	keep(client.Accounts.Update(ctx, "acct_1", AccountUpdateParams{Nickname: String("")}))
	keep(client.Accounts.Update(ctx, "acct_1", AccountUpdateParams{Metadata: map[string]string{"a": "b"}, Nickname: String("Payroll")}))
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		`POST /v1/fintech/transfers/tr_1/reversals {"amount":1000,"description":"refund"} key`,
		"GET /v1/fintech/transfers/tr_1/reversals?limit=2&starting_after=trr_9  -",
		"GET /v1/fintech/transfers/tr_1/reversals/trr_1  -",
		"GET /v1/fintech/accounts/acct_1/balances  -",
		"GET /v1/fintech/accounts/acct_1/balances?at=2026-11-25T09%3A30%3A05.007%2B01%3A00  -",
		"GET /v1/fintech/accounts/acct_1/statement?from=2026-11-01T00%3A00Z&to=2026-11-25T00%3A00Z  -",
		`POST /v1/fintech/accounts/acct_1 {"nickname":""} key`,
		`POST /v1/fintech/accounts/acct_1 {"metadata":{"a":"b"},"nickname":"Payroll"} key`,
	}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("calls:\n%q\nwant\n%q", seen, want)
	}
}

const usd = `{"amount":0,"currency":"USD"}`

const reversalJSON = `{"id":"trr_1","object":"fintech.transfer_reversal","transfer_id":"tr_1","amount":1000,"currency":"USD",` +
	`"description":"refund","metadata":{},"livemode":false,"created_at":"2026-11-25T09:30Z"}`
