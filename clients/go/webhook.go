package plinth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// DefaultWebhookTolerance is how far a delivery's webhook-timestamp may be from now, either way.
const DefaultWebhookTolerance = 5 * time.Minute

// WebhookVerificationError says why VerifyWebhook refused a delivery. Reason is one of missing_headers,
// timestamp_invalid, timestamp_too_old, timestamp_too_new, secret_invalid, signature_mismatch, body_invalid.
type WebhookVerificationError struct {
	Reason  string
	Message string
}

func (e *WebhookVerificationError) Error() string {
	return "plinth: webhook verification failed (" + e.Reason + "): " + e.Message
}

// VerifyWebhook checks a delivery (docs/api.md#webhooks, Standard Webhooks v1): its webhook-timestamp is within
// tolerance of now (0 means DefaultWebhookTolerance), and one of its "v1," signatures is the HMAC-SHA256, keyed with
// the decoded whsec_ secret, of "<webhook-id>.<webhook-timestamp>.<body>", compared in constant time. body must be the
// exact bytes received. It returns the parsed event.
//
//	event, err := plinth.VerifyWebhook(secret, r.Header, body, 0)
func VerifyWebhook(secret string, header http.Header, body []byte, tolerance time.Duration) (*plinthapi.Event, error) {
	return verifyWebhookAt(secret, header, body, tolerance, time.Now())
}

func verifyWebhookAt(secret string, header http.Header, body []byte, tolerance time.Duration, now time.Time) (*plinthapi.Event, error) {
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	id, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return nil, &WebhookVerificationError{"missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required"}
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || seconds < 0 {
		return nil, &WebhookVerificationError{"timestamp_invalid", "webhook-timestamp is not unix seconds"}
	}
	sent := time.Unix(seconds, 0)
	if sent.Before(now.Add(-tolerance)) {
		return nil, &WebhookVerificationError{"timestamp_too_old", "webhook-timestamp is too old"}
	}
	if sent.After(now.Add(tolerance)) {
		return nil, &WebhookVerificationError{"timestamp_too_new", "webhook-timestamp is in the future"}
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return nil, &WebhookVerificationError{"secret_invalid", "the secret is not whsec_ followed by base64"}
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	matched := false
	for _, candidate := range strings.Split(signatures, " ") {
		version, signature, found := strings.Cut(candidate, ",")
		if found && version == "v1" && hmac.Equal([]byte(signature), expected) {
			matched = true
		}
	}
	if !matched {
		return nil, &WebhookVerificationError{"signature_mismatch", "no webhook-signature matches the body"}
	}
	var event plinthapi.Event
	if err := json.Unmarshal(body, &event); err != nil {
		return nil, &WebhookVerificationError{"body_invalid", fmt.Sprintf("the signed body is not an event: %v", err)}
	}
	return &event, nil
}
