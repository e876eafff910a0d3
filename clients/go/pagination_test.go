package plinth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// A list follows the cursor: starting_after the last id walking older, ending_before the first id walking newer,
// with the filter on every page.
func TestListFollowsTheCursor(t *testing.T) {
	var mu sync.Mutex
	var queries []string
	var pages [][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		queries = append(queries, r.URL.RawQuery)
		ids := pages[0]
		pages = pages[1:]
		items := make([]string, len(ids))
		for i, id := range ids {
			items[i] = `{"id":"` + id + `","object":"fintech.account","type":"business","country":"US","status":"frozen",` +
				`"status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},` +
				`"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"nickname":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:00Z"}`
		}
		more := len(pages) > 0
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[` + strings.Join(items, ",") + `],"has_more":` + map[bool]string{true: "true", false: "false"}[more] + `}`))
	}))
	defer srv.Close()
	client := fastClient(srv.URL)
	collect := func(p AccountListParams) []string {
		var ids []string
		for a, err := range client.Accounts.List(context.Background(), p) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, a.Id)
		}
		return ids
	}

	pages = [][]string{{"acct_4", "acct_3"}, {"acct_2"}}
	got := collect(AccountListParams{Status: "frozen", ListParams: ListParams{Limit: 2}})
	want := []string{"limit=2&status=frozen", "limit=2&starting_after=acct_3&status=frozen"}
	if !reflect.DeepEqual(got, []string{"acct_4", "acct_3", "acct_2"}) || !reflect.DeepEqual(queries, want) {
		t.Fatalf("older: %v from %v", got, queries)
	}

	queries, pages = nil, [][]string{{"acct_6", "acct_5"}, {"acct_8", "acct_7"}}
	got = collect(AccountListParams{ListParams: ListParams{Limit: 2, EndingBefore: "acct_4"}})
	want = []string{"ending_before=acct_4&limit=2", "ending_before=acct_6&limit=2"}
	if !reflect.DeepEqual(got, []string{"acct_6", "acct_5", "acct_8", "acct_7"}) || !reflect.DeepEqual(queries, want) {
		t.Fatalf("newer: %v from %v", got, queries)
	}
}
