package plinth

import (
	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// CreatedFilter keeps the objects of a list created within its bounds (docs/api.md#filters); an empty field is no
// bound. Each is a time as the API writes it — "2026-11-24T09:30Z", the form of every CreatedAt, names that whole
// minute — or RFC 3339 with an offset, such as t.Format(time.RFC3339Nano) (an instant). On the wire: created[gte]=….
type CreatedFilter struct {
	Gte string // created at or after
	Gt  string // created after
	Lte string // created at or before
	Lt  string // created before
}

func (f CreatedFilter) isZero() bool { return f == CreatedFilter{} }

// bounds returns the bounds that are given, as the generated parameter models hold them (pointers, nil when unset);
// zz_operations.go copies them into the generated type each list's created filter has.
func (f CreatedFilter) bounds() (gte, gt, lte, lt *string) {
	set := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return set(f.Gte), set(f.Gt), set(f.Lte), set(f.Lt)
}

// SetMetadata is a metadata change for an update: every key of m is set, a key given "" is removed, keys not named
// stay as they are. Accounts.Update and Transfers.Update build it from their params; for WebhookEndpoints.Update
// put it in the generated request: plinthapi.UpdateWebhookEndpointRequest{Metadata: plinth.SetMetadata(m)}.
func SetMetadata(m map[string]string) *plinthapi.UpdateWebhookEndpointRequestMetadata {
	if m == nil {
		m = map[string]string{} // a nil map would be sent as null, which the API refuses
	}
	return &plinthapi.UpdateWebhookEndpointRequestMetadata{MapmapOfStringstring: &m}
}

// ClearMetadata is the metadata change that removes every key (the API's "metadata": "").
func ClearMetadata() *plinthapi.UpdateWebhookEndpointRequestMetadata {
	empty := ""
	return &plinthapi.UpdateWebhookEndpointRequestMetadata{String: &empty}
}
