package plinth

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// A restricted key on the wire (docs/api.md#keys-and-the-sandbox): the groups given, and only those, in the body; the
// answer's permissions, every group listed, decoded; a full key's permissions nil.
func TestRestrictedKeyPermissionsOnTheWire(t *testing.T) {
	var body string
	restricted := `{"id":"key_2","object":"api_key","mode":"sandbox","hint":"rk_test_…abcd","name":null,"livemode":false,` +
		`"created_at":"2026-11-22T10:00Z","revoked_at":null,"last_used_at":null,"permissions":{"accounts":"read",` +
		`"transfers":"none","transactions":"read","sandbox":"none","events":"none","webhook_endpoints":"none",` +
		`"api_keys":"none","requests":"none","payments":"none"},"key":"rk_test_secret"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		read, _ := io.ReadAll(r.Body)
		body = strings.TrimSpace(string(read))
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(body, "permissions") {
			w.Write([]byte(restricted))
		} else {
			w.Write([]byte(apiKeyJSON + `"sk_test_secret"}`))
		}
	}))
	defer srv.Close()
	client := fastClient(srv.URL)
	ctx := context.Background()

	readOnly := &plinthapi.CreateApiKeyRequestPermissions{Accounts: String("read"), Transactions: String("read")}
	created, _, err := client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{Permissions: readOnly})
	if err != nil || body != `{"permissions":{"accounts":"read","transactions":"read"}}` {
		t.Fatalf("sent %s: %v", body, err)
	}
	got := created.Permissions.Get()
	if created.Key != "rk_test_secret" || got == nil || got.Accounts != "read" || got.Transfers != "none" || got.Requests != "none" {
		t.Fatalf("restricted key: %q %+v", created.Key, got)
	}
	full, _, err := client.APIKeys.Create(ctx, plinthapi.CreateApiKeyRequest{})
	if err != nil || body != `{}` || full.Permissions.Get() != nil || !full.Permissions.IsSet() {
		t.Fatalf("full key: sent %s, permissions %+v, %v", body, full.Permissions.Get(), err)
	}
}
