package plinth

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// The list filters go on the wire as OpenAPI deepObjects — created[gte]=…, metadata[key]=value — on every page,
// and an update sends the metadata map, or "" to clear it. The expected forms are written by hand from
// docs/api.md#metadata-your-own-references.
func TestFiltersAndMetadataOnTheWire(t *testing.T) {
	var mu sync.Mutex
	var seen []string // method, path?query, body
	more := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+strings.TrimSpace(string(body)))
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.Write([]byte(transferJSON("tr_1")))
			return
		}
		w.Write([]byte(`{"object":"list","data":[` + transferJSON("tr_2") + `],"has_more":` + map[bool]string{true: "true", false: "false"}[more] + `}`))
		more = false
	}))
	defer srv.Close()
	client := fastClient(srv.URL)
	ctx := context.Background()

	p := TransferListParams{
		Status:     "pending",
		Created:    CreatedFilter{Gte: "2026-11-24T00:00Z", Lt: "2026-11-25T09:30:00+01:00"},
		Metadata:   map[string]string{"order": "A-1", "ship to": "Zürich & co"},
		ListParams: ListParams{Limit: 1},
	}
	for _, err := range client.Transfers.List(ctx, p) {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The generated client writes the brackets as they are and the rest form-encoded (a space as +), as Stripe's
	// libraries and Go's url.Values do; the server decodes either form.
	filters := "created[gte]=2026-11-24T00%3A00Z&created[lt]=2026-11-25T09%3A30%3A00%2B01%3A00&limit=1&" +
		"metadata[order]=A-1&metadata[ship+to]=Z%C3%BCrich+%26+co"
	want := []string{
		"GET /v1/fintech/transfers?" + filters + "&status=pending ",
		"GET /v1/fintech/transfers?" + filters + "&starting_after=tr_2&status=pending ",
	}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("pages:\n%q\nwant\n%q", seen, want)
	}
	query, _ := url.ParseQuery(filters)
	decoded := map[string]string{}
	for name, values := range query {
		decoded[name] = values[0]
	}
	if decoded["created[lt]"] != "2026-11-25T09:30:00+01:00" || decoded["metadata[ship to]"] != "Zürich & co" {
		t.Fatalf("decoded %v", decoded)
	}

	seen, more = nil, false
	client.Events.ListPage(ctx, EventListParams{Created: CreatedFilter{Lte: "2026-11-24T00:00Z"}})
	client.Transactions.ListPage(ctx, "acct_1", TransactionListParams{})
	client.Transfers.Update(ctx, "tr_1", TransferUpdateParams{Metadata: map[string]string{"order": ""}})
	client.Accounts.Update(ctx, "acct_1", AccountUpdateParams{ClearMetadata: true})
	client.WebhookEndpoints.Update(ctx, "we_1", plinthapi.UpdateWebhookEndpointRequest{Metadata: SetMetadata(nil)})
	want = []string{
		"GET /v1/events?created[lte]=2026-11-24T00%3A00Z&limit=10 ", // the generated client sends the default limit
		"GET /v1/fintech/accounts/acct_1/transactions?limit=10 ",
		`POST /v1/fintech/transfers/tr_1 {"metadata":{"order":""}}`,
		`POST /v1/fintech/accounts/acct_1 {"metadata":""}`,
		`POST /v1/webhook_endpoints/we_1 {"metadata":{}}`,
	}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("calls:\n%q\nwant\n%q", seen, want)
	}
	if _, _, err := client.Accounts.Update(ctx, "acct_1", AccountUpdateParams{ClearMetadata: true, Metadata: map[string]string{"a": "b"}}); err == nil || len(seen) != 5 {
		t.Fatalf("ClearMetadata with keys: %v, %d calls", err, len(seen))
	}
}

func transferJSON(id string) string {
	return `{"id":"` + id + `","object":"fintech.transfer","from_account_id":"acct_1","to_account_id":"acct_2","amount":1,` +
		`"currency":"USD","description":null,"status":"pending","pending":true,"posted_amount":null,` +
		`"expires_at":"2026-11-25T10:00Z","resolved_at":null,"amount_reversed":0,"reversed":false,"metadata":{"order":"A-1"},"livemode":false,"created_at":"2026-11-24T10:00Z"}`
}
