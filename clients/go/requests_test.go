package plinth

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
)

// The request log's filters go on the wire as the other filtered lists': status and method as plain parameters,
// created as a deepObject with literal brackets, on every page; Retrieve asks for the one id. Expected forms written
// by hand from docs/api.md#the-request-log.
func TestRequestLogFiltersOnTheWire(t *testing.T) {
	var mu sync.Mutex
	var seen []string // method, path?query
	pages := 2
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		io.Copy(io.Discard, r.Body)
		seen = append(seen, r.Method+" "+r.URL.RequestURI())
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/requests" {
			w.Write([]byte(requestLogJSON("req_1")))
			return
		}
		pages--
		w.Write([]byte(`{"object":"list","data":[` + requestLogJSON("req_2") + `],"has_more":` + map[bool]string{true: "true", false: "false"}[pages > 0] + `}`))
	}))
	defer srv.Close()
	client := fastClient(srv.URL)
	ctx := context.Background()

	p := RequestListParams{
		Status:     "409",
		Method:     "POST",
		Created:    CreatedFilter{Gte: "2026-11-25T14:30:00+05:30", Lt: "2026-11-26T00:00Z"},
		ListParams: ListParams{Limit: 1},
	}
	var ids []string
	for r, err := range client.Requests.List(ctx, p) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Id)
	}
	entry, _, err := client.Requests.Retrieve(ctx, "req_1")
	if err != nil {
		t.Fatal(err)
	}
	filters := "created[gte]=2026-11-25T14%3A30%3A00%2B05%3A30&created[lt]=2026-11-26T00%3A00Z&limit=1&method=POST"
	want := []string{
		"GET /v1/requests?" + filters + "&status=409",
		"GET /v1/requests?" + filters + "&starting_after=req_2&status=409",
		"GET /v1/requests/req_1",
	}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("calls:\n%q\nwant\n%q", seen, want)
	}
	if !reflect.DeepEqual(ids, []string{"req_2", "req_2"}) || entry.Id != "req_1" || entry.Body.Get() == nil || *entry.Body.Get() != `{"type":"business"}` {
		t.Fatalf("decoded %v, %+v", ids, entry)
	}
}

func requestLogJSON(id string) string {
	return `{"id":"` + id + `","object":"request_log","method":"POST","route":"/v1/fintech/accounts","path":"/v1/fintech/accounts",` +
		`"status":200,"error_code":null,"duration_ms":1.5,"api_key_id":"key_1","api_key_hint":"sk_test_…abcd",` +
		`"idempotency_key":null,"idempotent_replayed":false,"count":null,"source":"api","body":"{\"type\":\"business\"}",` +
		`"body_truncated":false,"response_body":null,"response_truncated":false,"query":null,"bodies_hidden":false,"error_detail":null,"error_param":null,"created_at":"2026-11-25T09:00:00.000Z","livemode":false}`
}
