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
