package plinth

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// A server that answers each request from a script, recording what it received. What a live Plinth cannot be made
// to do on demand (503, 409 in progress) is played here.
type scripted struct {
	mu      sync.Mutex
	answers []func(http.ResponseWriter)
	keys    []string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = append(s.keys, r.Header.Get("Idempotency-Key"))
	answer := s.answers[0]
	if len(s.answers) > 1 {
		s.answers = s.answers[1:]
	}
	w.Header().Set("Request-Id", "req_TEST"+strings.Repeat("0", 22))
	answer(w)
}

func problem(status int, code string, retryAfter string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(status)
		w.Write([]byte(`{"type":"/docs/errors#` + code + `","title":"t","status":` + strconv.Itoa(status) + `,"detail":"d","code":"` + code + `","request_id":"req_X"}`))
	}
}

func account(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"id":"acct_1","object":"fintech.account","type":"business","country":"US","status":"active",` +
		`"status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},` +
		`"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"nickname":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:00Z"}`))
}

func fastClient(url string, opts ...Option) *Client {
	return New("sk_test_x", append([]Option{WithBaseURL(url), WithBackoff(time.Millisecond, 5*time.Millisecond)}, opts...)...)
}

func TestPostRetriesKeepOneIdempotencyKey(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){
		problem(503, "service_unavailable", ""),
		problem(409, "idempotency_request_in_progress", ""),
		account,
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	acct, resp, err := fastClient(srv.URL).Accounts.Create(context.Background(), plinthapi.CreateAccountRequest{Type: "business", Country: "US"})
	if err != nil {
		t.Fatal(err)
	}
	if acct.Id != "acct_1" || resp.Retries != 2 || !strings.HasPrefix(resp.RequestID, "req_") {
		t.Fatalf("got %s after %d retries, request id %q", acct.Id, resp.Retries, resp.RequestID)
	}
	if len(s.keys) != 3 || s.keys[0] == "" || s.keys[0] != s.keys[1] || s.keys[1] != s.keys[2] {
		t.Fatalf("Idempotency-Keys %q: want one key for every attempt", s.keys)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){problem(429, "rate_limited", "1"), account}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	start := time.Now()
	_, resp, err := fastClient(srv.URL).Accounts.Retrieve(context.Background(), "acct_1")
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < time.Second || resp.Retries != 1 {
		t.Fatalf("waited %v over %d retries; Retry-After said 1 s", waited, resp.Retries)
	}
	if s.keys[0] != "" {
		t.Fatalf("a GET carried Idempotency-Key %q", s.keys[0])
	}
}

func TestOtherConflictsAndClientErrorsAreNotRetried(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){problem(409, "account_frozen", "")}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	_, _, err := fastClient(srv.URL).Accounts.Create(context.Background(), plinthapi.CreateAccountRequest{Type: "business", Country: "US"}, WithIdempotencyKey("mine"))
	e, ok := AsError(err)
	if !ok || e.Status != 409 || e.Code != "account_frozen" || e.RequestID != "req_X" {
		t.Fatalf("got %v", err)
	}
	if len(s.keys) != 1 || s.keys[0] != "mine" {
		t.Fatalf("keys %q: want one attempt with the caller's key", s.keys)
	}
}

func TestRetriesGiveUpAndReturnTheLastError(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){problem(500, "internal_error", "")}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	_, _, err := fastClient(srv.URL, WithMaxRetries(2)).Accounts.Retrieve(context.Background(), "acct_1")
	e, ok := AsError(err)
	if !ok || e.Status != 500 || e.Response.Retries != 2 || len(s.keys) != 3 {
		t.Fatalf("got %v after %d attempts", err, len(s.keys))
	}
}

func TestConnectionErrorsAreRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every attempt is refused
	_, resp, err := fastClient("http://"+addr).Accounts.Retrieve(context.Background(), "acct_1")
	if err == nil || resp.Retries != DefaultMaxRetries {
		t.Fatalf("got %v after %d retries", err, resp.Retries)
	}
	if _, ok := AsError(err); ok {
		t.Fatalf("a connection error is not a problem answer: %v", err)
	}
}
