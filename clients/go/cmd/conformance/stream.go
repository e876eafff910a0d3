package main

import (
	"context"
	"fmt"
	"iter"
	"time"

	plinth "github.com/plinth-dev/plinth-go"
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// streamStep is step 25: the live event stream through the rewriting proxy, which splits each event's data over two
// lines, adds a comment and a retry field, and loses the connection after every event (ending it cleanly, then
// cutting it): the iterator yields the last three events once each, in order, the ones the list returns, then a live
// one; a type filter holds; breaking out of the loop stops it; a revoked key's stream ends with *plinth.Error, 401.
func streamStep(client, proxied *plinth.Client, proxyURL string) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	page := must(client.Events.ListPage(ctx, plinth.EventListParams{ListParams: plinth.ListParams{Limit: 3}}))
	check(len(page.Data) == 3, "%d events listed", len(page.Data))
	newest := page.Data[0].Sequence
	after := newest - 3
	next, stop := iter.Pull2(proxied.Events.Stream(ctx, plinth.StreamParams{After: &after}))
	defer stop()
	read := func() *plinthapi.Event {
		event, err, ok := next()
		check(ok && err == nil, "the stream ended: %v", err)
		return event
	}
	for i := 2; i >= 0; i-- {
		event := read()
		check(event.Id == page.Data[i].Id && event.Sequence == page.Data[i].Sequence,
			"streamed %s (%d), listed %s (%d)", event.Id, event.Sequence, page.Data[i].Id, page.Data[i].Sequence)
	}
	live := must(client.Accounts.Create(ctx, plinthapi.CreateAccountRequest{Type: "business", Country: "US"}))
	event := read()
	check(event.Sequence == newest+1 && event.Type == "fintech.account.created" && event.Data.Object["id"] == live.Id,
		"live event %d %s %v, want %d for %s", event.Sequence, event.Type, event.Data.Object["id"], newest+1, live.Id)
	stop()

	zero := int64(0)
	var sequences []int64
	for event, err := range proxied.Events.Stream(ctx, plinth.StreamParams{Type: "fintech.account.created", After: &zero}) {
		check(err == nil, "typed stream: %v", err)
		check(event.Type == "fintech.account.created", "typed stream yielded %s", event.Type)
		check(len(sequences) == 0 || event.Sequence > sequences[len(sequences)-1], "sequences %v then %d", sequences, event.Sequence)
		sequences = append(sequences, event.Sequence)
		if len(sequences) == 3 {
			break
		}
	}
	check(len(sequences) == 3, "typed stream: %v", sequences)

	doomed := must(client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{}))
	must(client.APIKeys.Revoke(ctx, doomed.Id))
	revoked := plinth.New(doomed.Key, plinth.WithBaseURL(proxyURL))
	for event, err := range revoked.Events.Stream(ctx, plinth.StreamParams{}) {
		e, ok := plinth.AsError(err)
		check(event == nil && ok && e.Status == 401, "a revoked key's stream: %v %v", event, err)
	}
	fmt.Println("ok 25 the event stream resumes across lost connections with no gap and no repeat, live and filtered by type")
}
