package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// TransfersService: /v1/fintech/transfers, money from one account to another, at once or held first.
type TransfersService struct{ c *Client }

// Create moves money between two accounts: at once (the result is posted), or with Pending: PtrBool(true) held
// on the sender until Post, Void or ExpiresInSeconds (default 7 days). A POST: one Idempotency-Key for all its
// attempts, so the money moves once.
func (s *TransfersService) Create(ctx context.Context, params plinthapi.CreateTransferRequest, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.CreateTransfer(ctx).CreateTransferRequest(params).Execute()
	})
}

// Retrieve fetches one transfer by id (tr_…).
func (s *TransfersService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.RetrieveTransfer(ctx, id).Execute()
	})
}

// TransferUpdateParams says what Transfers.Update changes: only metadata.
type TransferUpdateParams struct {
	Metadata      map[string]string // keys to set; a key given "" is removed; keys not named stay as they are
	ClearMetadata bool              // remove every key instead (Metadata must then be empty)
}

// Update changes a transfer's metadata, in any status.
func (s *TransfersService) Update(ctx context.Context, id string, params TransferUpdateParams, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	metadata, err := metadataChange(params.Metadata, params.ClearMetadata)
	if err != nil {
		return nil, nil, err
	}
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.UpdateTransfer(ctx, id).UpdateTransferRequest(plinthapi.UpdateTransferRequest{Metadata: metadata}).Execute()
	})
}

// Post moves a pending transfer's money: all of it, or params.Amount of it (the rest returns to the sender's
// available balance). Not pending: 409 transfer_not_pending; past its ExpiresAt: 409 transfer_expired.
func (s *TransfersService) Post(ctx context.Context, id string, params plinthapi.PostTransferRequest, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.PostTransfer(ctx, id).PostTransferRequest(params).Execute()
	})
}

// Void releases a pending transfer's hold; nothing moves. The same refusals as Post.
func (s *TransfersService) Void(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.VoidTransfer(ctx, id).Execute()
	})
}

// ListPage fetches one page of transfers, newest first.
func (s *TransfersService) ListPage(ctx context.Context, p TransferListParams, opts ...RequestOption) (*plinthapi.TransferList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransferList, *http.Response, error) {
		req := withPage(s.c.api.FintechTransfersAPI.ListTransfers(ctx), p.ListParams)
		if p.AccountID != "" {
			req = req.AccountId(p.AccountID)
		}
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

// List iterates over every transfer, newest first; every filter given must hold.
func (s *TransfersService) List(ctx context.Context, p TransferListParams) iter.Seq2[*plinthapi.Transfer, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.Transfer, bool, error) {
		filters := p // every filter, on every page
		filters.ListParams = lp
		page, _, err := s.ListPage(ctx, filters)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(t *plinthapi.Transfer) string { return t.Id })
}
