package main

// Step 22 of the conformance scenario (clients/README.md): the request log. The create of step 2 is found by its
// Request-Id through the filters (method, status, created[gte]), then retrieved with its body.

import (
	"encoding/json"
	"fmt"
	"time"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

func requestLogStep(client *plinth.Client, firstRequestID string) {
	since := time.Now().Add(-time.Hour).Format(time.RFC3339Nano)
	posts := plinth.RequestListParams{Method: "POST", Status: "200", Created: plinth.CreatedFilter{Gte: since}, ListParams: plinth.ListParams{Limit: 100}}
	var found *plinthapi.RequestLog
	// The log is written in batches, a few hundred milliseconds after each answer.
	for deadline := time.Now().Add(10 * time.Second); found == nil && time.Now().Before(deadline); {
		for _, r := range all("the request log", client.Requests.List(ctx, posts)) {
			if r.Id == firstRequestID {
				found = r
			}
		}
		if found == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	check(found != nil, "the create of step 2 (%s) is not in the request log within 10 s", firstRequestID)
	check(found.Route == "/v1/fintech/accounts", "route %q", found.Route)
	entry := must(client.Requests.Retrieve(ctx, firstRequestID))
	check(entry.Id == firstRequestID && entry.Method == "POST" && entry.Status == 200 && entry.Source == "api",
		"entry %s %s %d %s", entry.Id, entry.Method, entry.Status, entry.Source)
	var sent struct{ Type, Country string }
	check(entry.Body.Get() != nil, "no body")
	check(json.Unmarshal([]byte(*entry.Body.Get()), &sent) == nil && sent.Type == "business" && sent.Country == "US", "body %q", *entry.Body.Get())
	page := must(client.Requests.ListPage(ctx, plinth.RequestListParams{Created: plinth.CreatedFilter{Gte: "2000-01-01T00:00Z"}, ListParams: plinth.ListParams{Limit: 1}}))
	check(len(page.Data) == 1 && page.HasMore, "a page of 1: %d entries, has_more %v", len(page.Data), page.HasMore)
	fmt.Println("ok 22 the request log: list with filters, retrieve")
}
