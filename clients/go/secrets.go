package plinth

import plinthapi "github.com/plinth-dev/plinth-go/generated"

// The answers that carry a secret, with the secret as a plain string. A sign-up's and a key create's key, a
// created or rotated webhook endpoint's secret and a new account number's digits are in every first answer. The
// server never stores a secret, so the idempotent replay of such a create (the same Idempotency-Key again) carries
// null there: then Replayed is true and the secret is "" — keep the one from the first answer.

// NewAPIKey is a new API key: every field of the generated model, with Key its secret (sk_test_…, sk_live_…).
type NewAPIKey struct {
	plinthapi.ApiKeyWithSecret
	Key      string // the secret key, shown this once; "" only when Replayed
	Replayed bool   // the answer is the replay of an earlier create with the same Idempotency-Key
}

// SandboxSignup is a new sandbox organisation and its first key (a sign-up is never a replay).
type SandboxSignup struct {
	plinthapi.SandboxSignup
	ApiKey NewAPIKey // replaces the generated field of the same name: Key is a plain string
}

// WebhookEndpointWithSecret is a created or rotated webhook endpoint with the secret that signs its deliveries.
type WebhookEndpointWithSecret struct {
	plinthapi.WebhookEndpointWithSecret
	Secret   string // whsec_…; "" only when Replayed
	Replayed bool   // the answer is the replay of an earlier request with the same Idempotency-Key
}

// AccountNumber is a new account number: every field of the generated model, with Number its 12 digits (the
// embedded model's own AccountNumber field is the nullable one every later read leaves null).
type AccountNumber struct {
	plinthapi.AccountNumber
	Number   string // the 12 digits to give payers, shown this once; "" only when Replayed
	Replayed bool   // the answer is the replay of an earlier create with the same Idempotency-Key
}

func newAPIKey(k *plinthapi.ApiKeyWithSecret, resp *Response) NewAPIKey {
	return NewAPIKey{ApiKeyWithSecret: *k, Key: k.GetKey(), Replayed: resp.Replayed}
}

func newEndpointWithSecret(e *plinthapi.WebhookEndpointWithSecret, resp *Response) *WebhookEndpointWithSecret {
	return &WebhookEndpointWithSecret{WebhookEndpointWithSecret: *e, Secret: e.GetSecret(), Replayed: resp.Replayed}
}

// wrapNewAPIKey and wrapWebhookEndpointWithSecret give the generated methods (zz_operations.go) the answer of a
// write whose secret is shown once, named after the answer's model in the API description.
func wrapNewAPIKey(k *plinthapi.ApiKeyWithSecret, resp *Response) *NewAPIKey {
	key := newAPIKey(k, resp)
	return &key
}

func wrapWebhookEndpointWithSecret(e *plinthapi.WebhookEndpointWithSecret, resp *Response) *WebhookEndpointWithSecret {
	return newEndpointWithSecret(e, resp)
}

func wrapAccountNumber(n *plinthapi.AccountNumber, resp *Response) *AccountNumber {
	return &AccountNumber{AccountNumber: *n, Number: n.GetAccountNumber(), Replayed: resp.Replayed}
}
