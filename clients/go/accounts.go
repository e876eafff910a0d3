package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// AccountsService: /v1/fintech/accounts.
type AccountsService struct{ c *Client }

// Create creates an account. A POST: one Idempotency-Key for all its attempts (WithIdempotencyKey to choose it).
func (s *AccountsService) Create(ctx context.Context, params plinthapi.CreateAccountRequest, opts ...RequestOption) (*plinthapi.Account, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Account, *http.Response, error) {
		return s.c.api.FintechAccountsAPI.CreateAccount(ctx).CreateAccountRequest(params).Execute()
	})
}

// Retrieve fetches one account by id (acct_…).
func (s *AccountsService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Account, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Account, *http.Response, error) {
		return s.c.api.FintechAccountsAPI.RetrieveAccount(ctx, id).Execute()
	})
}

// ListPage fetches one page of accounts, newest first.
func (s *AccountsService) ListPage(ctx context.Context, p AccountListParams, opts ...RequestOption) (*plinthapi.AccountList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.AccountList, *http.Response, error) {
		req := withPage(s.c.api.FintechAccountsAPI.ListAccounts(ctx), p.ListParams)
		if p.Status != "" {
			req = req.Status(p.Status)
		}
		if !p.Created.isZero() {
			req = req.Created(p.Created.forAccounts())
		}
		if len(p.Metadata) > 0 {
			req = req.Metadata(p.Metadata)
		}
		return req.Execute()
	})
}

// List iterates over every account, newest first, fetching pages as needed:
//
//	for acct, err := range client.Accounts.List(ctx, plinth.AccountListParams{Status: "frozen"}) { … }
func (s *AccountsService) List(ctx context.Context, p AccountListParams) iter.Seq2[*plinthapi.Account, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.Account, bool, error) {
		filters := p // every filter, on every page
		filters.ListParams = lp
		page, _, err := s.ListPage(ctx, filters)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(a *plinthapi.Account) string { return a.Id })
}

// AccountUpdateParams says what Accounts.Update changes: the metadata, the nickname or both; what is not given stays.
type AccountUpdateParams struct {
	Metadata      map[string]string // keys to set; a key given "" is removed; keys not named stay as they are
	ClearMetadata bool              // remove every key instead (Metadata must then be empty)
	Nickname      *string           // a label for people, plinth.String("Payroll"); String("") removes it; nil leaves it
}

// String returns a pointer to s, for an optional text such as AccountUpdateParams.Nickname.
func String(s string) *string { return &s }

// Update changes an account's metadata, its nickname or both; allowed on a closed account.
func (s *AccountsService) Update(ctx context.Context, id string, params AccountUpdateParams, opts ...RequestOption) (*plinthapi.Account, *Response, error) {
	body := plinthapi.UpdateAccountRequest{Nickname: params.Nickname}
	if params.Metadata != nil || params.ClearMetadata || params.Nickname == nil {
		metadata, err := metadataChange(params.Metadata, params.ClearMetadata)
		if err != nil {
			return nil, nil, err
		}
		body.Metadata = &metadata
	}
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Account, *http.Response, error) {
		return s.c.api.FintechAccountsAPI.UpdateAccount(ctx, id).UpdateAccountRequest(body).Execute()
	})
}

// Freeze stops every debit and credit until Unfreeze. Reason: suspected_fraud, compliance_review,
// customer_request, other.
func (s *AccountsService) Freeze(ctx context.Context, id string, params plinthapi.FreezeAccountRequest, opts ...RequestOption) (*plinthapi.Account, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Account, *http.Response, error) {
		return s.c.api.FintechAccountsAPI.FreezeAccount(ctx, id).FreezeAccountRequest(params).Execute()
	})
}

// Unfreeze makes a frozen account active again.
func (s *AccountsService) Unfreeze(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Account, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Account, *http.Response, error) {
		return s.c.api.FintechAccountsAPI.UnfreezeAccount(ctx, id).Execute()
	})
}

// Close closes an account for good; its balance must be zero. Reason (optional): customer_request, fraud,
// compliance, other.
func (s *AccountsService) Close(ctx context.Context, id string, params plinthapi.CloseAccountRequest, opts ...RequestOption) (*plinthapi.Account, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Account, *http.Response, error) {
		return s.c.api.FintechAccountsAPI.CloseAccount(ctx, id).CloseAccountRequest(params).Execute()
	})
}
