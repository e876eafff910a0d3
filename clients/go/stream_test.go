package plinth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// The event stream against a scripted server: what a live Plinth does not send on demand (a gap, CRLF line ends,
// a 503, a refusal) is played here; the conformance program drives a live one through a flaky proxy.

func sseEvent(sequence int) string {
	return fmt.Sprintf("id: %d\nevent: fintech.account.created\ndata: {\"id\":\"evt_%026d\",\"object\":\"event\",\n"+
		"data: \"type\":\"fintech.account.created\",\"sequence\":%d,\"data\":{\"object\":{\"id\":\"acct_%d\"}},"+
		"\"request\":null,\"livemode\":false,\"created_at\":\"2026-11-26T10:00Z\"}\n\n", sequence, sequence, sequence, sequence)
}

type streamScript struct {
	mu      sync.Mutex
	answers []func(http.ResponseWriter)
	seen    []string // Last-Event-ID of each request, "-" when absent
	paths   []string
}

func (s *streamScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	id := r.Header.Get("Last-Event-ID")
	if id == "" {
		id = "-"
	}
	s.seen = append(s.seen, id)
	s.paths = append(s.paths, r.URL.RequestURI())
	answer := func(w http.ResponseWriter) { sse(": idle\n\n")(w) }
	if len(s.answers) > 0 {
		answer, s.answers = s.answers[0], s.answers[1:]
	}
	s.mu.Unlock()
	answer(w)
}

func sse(text string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(text))
	}
}

func TestStreamResumesByLastEventIDWithNoGapOrRepeat(t *testing.T) {
	var gaps []string
	s := &streamScript{answers: []func(http.ResponseWriter){
		sse(": stream open\nid: 7\n\n"), // dropped before any event: resume from its opening id
		sse(": stream open\r\nretry: 5\r\nid: 7\r\n\r\n" + strings.ReplaceAll(sseEvent(8), "\n", "\r\n") + sseEvent(9)[:40]),
		problem(503, "service_unavailable", ""),
		sse("id: 8\n\n" + "id: 11\nevent: gap\ndata: {\"from\":10,\"to\":11}\n\n" + sseEvent(12)),
	}}
	server := httptest.NewServer(s)
	defer server.Close()
	client := fastClient(server.URL)
	var got []int64
	for event, err := range client.Events.Stream(context.Background(), StreamParams{
		Type: "fintech.account.created", OnGap: func(from, to int64) { gaps = append(gaps, fmt.Sprint(from, "-", to)) },
	}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, event.Sequence)
		if len(got) == 2 {
			break
		}
	}
	if fmt.Sprint(got) != "[8 12]" || fmt.Sprint(gaps) != "[10-11]" {
		t.Fatalf("got %v, gaps %v", got, gaps)
	}
	if fmt.Sprint(s.seen) != "[- 7 8 8]" {
		t.Fatalf("Last-Event-ID %v", s.seen)
	}
	if s.paths[0] != "/v1/events/stream?type=fintech.account.created" {
		t.Fatalf("path %s", s.paths[0])
	}
}

func TestStreamAfterAndCancel(t *testing.T) {
	s := &streamScript{answers: []func(http.ResponseWriter){sse("id: 3\n\n" + sseEvent(4))}}
	server := httptest.NewServer(s)
	defer server.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	after := int64(3)
	n := 0
	for event, err := range fastClient(server.URL).Events.Stream(ctx, StreamParams{After: &after}) {
		if err != nil {
			t.Fatal(err)
		}
		if event.Sequence != 4 || event.Data.Object == nil {
			t.Fatalf("event %+v", event)
		}
		n++
		cancel() // the loop ends with no error, even while the stream waits
	}
	if n != 1 || s.seen[0] != "3" {
		t.Fatalf("%d events, Last-Event-ID %v", n, s.seen)
	}
}

func TestStreamARefusedKeyEndsWithTheError(t *testing.T) {
	s := &streamScript{answers: []func(http.ResponseWriter){problem(401, "api_key_invalid", "")}}
	server := httptest.NewServer(s)
	defer server.Close()
	for event, err := range fastClient(server.URL).Events.Stream(context.Background(), StreamParams{}) {
		e, ok := AsError(err)
		if event != nil || !ok || e.Status != 401 || e.Code != "api_key_invalid" {
			t.Fatalf("event %v, err %v", event, err)
		}
	}
}
