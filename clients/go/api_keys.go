package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// APIKeysService: /v1/api_keys.
type APIKeysService struct{ c *Client }

// Create mints a key; its secret is the result's Key, a plain string shown this once. Mode (sandbox, live)
// defaults to the calling key's; Name is a label for people.
func (s *APIKeysService) Create(ctx context.Context, params plinthapi.CreateApiKeyRequest, opts ...RequestOption) (*NewAPIKey, *Response, error) {
	created, resp, err := call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.ApiKeyWithSecret, *http.Response, error) {
		return s.c.api.APIKeysAPI.CreateApiKey(ctx).CreateApiKeyRequest(params).Execute()
	})
	if err != nil {
		return nil, resp, err
	}
	key := newAPIKey(created, resp)
	return &key, resp, nil
}

// Retrieve fetches one key by id (key_…); never its secret.
func (s *APIKeysService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.ApiKey, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.ApiKey, *http.Response, error) {
		return s.c.api.APIKeysAPI.RetrieveApiKey(ctx, id).Execute()
	})
}

// ListPage fetches one page of keys of the caller's mode, newest first.
func (s *APIKeysService) ListPage(ctx context.Context, p ListParams, opts ...RequestOption) (*plinthapi.ApiKeyList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.ApiKeyList, *http.Response, error) {
		return withPage(s.c.api.APIKeysAPI.ListApiKeys(ctx), p).Execute()
	})
}

// List iterates over every key of the caller's mode, newest first.
func (s *APIKeysService) List(ctx context.Context, p ListParams) iter.Seq2[*plinthapi.ApiKey, error] {
	return paginate(ctx, p, func(ctx context.Context, lp ListParams) ([]plinthapi.ApiKey, bool, error) {
		page, _, err := s.ListPage(ctx, lp)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(k *plinthapi.ApiKey) string { return k.Id })
}

// Revoke stops a key working at once; harmless to repeat.
func (s *APIKeysService) Revoke(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.ApiKey, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.ApiKey, *http.Response, error) {
		return s.c.api.APIKeysAPI.RevokeApiKey(ctx, id).Execute()
	})
}
