package plinth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

const apiKeyJSON = `{"id":"key_1","object":"api_key","mode":"sandbox","hint":"sk_test_…abcd","name":"ci","livemode":false,` +
	`"created_at":"2026-11-22T10:00Z","revoked_at":null,"last_used_at":null,"permissions":null,"key":`

func answer(body string, replayed bool) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		if replayed {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		w.Write([]byte(body))
	}
}

// A new key's Key is a plain string; on an idempotent replay (no secret in the answer) it is "" and Replayed says why.
func TestNewKeySecretIsAStringAndAReplayIsMarked(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){
		answer(apiKeyJSON+`"sk_test_secret"}`, false),
		answer(apiKeyJSON+`null}`, true),
		answer(`{"id":"we_1","object":"webhook_endpoint","url":"https://example.com/hook","enabled_events":["*"],`+
			`"description":null,"status":"enabled","disabled_reason":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:00Z",`+
			`"secret":null}`, true),
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := fastClient(srv.URL)
	ctx := context.Background()
	created, _, err := client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{}, WithIdempotencyKey("k"))
	if err != nil || created.Key != "sk_test_secret" || created.Replayed || created.Id != "key_1" {
		t.Fatalf("first answer: %+v, %v", created, err)
	}
	again, resp, err := client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{}, WithIdempotencyKey("k"))
	if err != nil || again.Key != "" || !again.Replayed || !resp.Replayed || again.Id != "key_1" {
		t.Fatalf("replay: %+v, %v", again, err)
	}
	rotated, _, err := client.WebhookEndpoints.RotateSecret(ctx, "we_1", plinthapi.RotateWebhookEndpointSecretRequest{})
	if err != nil || rotated.Secret != "" || !rotated.Replayed || rotated.Url != "https://example.com/hook" {
		t.Fatalf("replayed rotation: %+v, %v", rotated, err)
	}
}

// A new account number's Number is its 12 digits as a plain string; on an idempotent replay it is "" and Replayed
// says why; a retrieve answers the generated model, its AccountNumber null (docs/api.md#bank-account-numbers-and-payments).
func TestNewAccountNumberIsAStringOnceAndAReplayIsMarked(t *testing.T) {
	const number = `{"id":"an_1","object":"fintech.account_number","account_id":"acct_1","routing_number":"110000000",` +
		`"account_number_last4":"9012","name":"Main","status":"active","inbound_debits":"allowed","livemode":false,` +
		`"created_at":"2026-11-28T10:00Z","account_number":`
	s := &scripted{answers: []func(http.ResponseWriter){
		answer(number+`"123456789012"}`, false),
		answer(number+`null}`, true),
		answer(number+`null}`, false),
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := fastClient(srv.URL)
	ctx := context.Background()
	request := plinthapi.CreateAccountNumberRequest{AccountId: "acct_1"}
	created, _, err := client.AccountNumbers.Create(ctx, request, WithIdempotencyKey("k"))
	if err != nil || created.Number != "123456789012" || created.Replayed || created.Id != "an_1" {
		t.Fatalf("first answer: %+v, %v", created, err)
	}
	again, _, err := client.AccountNumbers.Create(ctx, request, WithIdempotencyKey("k"))
	if err != nil || again.Number != "" || !again.Replayed || again.AccountNumberLast4 != "9012" {
		t.Fatalf("replay: %+v, %v", again, err)
	}
	read, _, err := client.AccountNumbers.Retrieve(ctx, "an_1")
	if err != nil || read.AccountNumber.Get() != nil || read.AccountNumberLast4 != "9012" {
		t.Fatalf("retrieved: %+v, %v", read, err)
	}
}
