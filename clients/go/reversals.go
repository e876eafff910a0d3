package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// A transfer's reversals (docs/api.md#correcting-a-transfer): methods of Transfers taking the transfer's id first,
// as Events.ListDeliveries does.

// Reverse moves a posted transfer's money back to its sender, linked to it: all that remains (PostedAmount −
// AmountReversed), or params.Amount of it; in several parts if need be. Not posted, or fully reversed: 409
// transfer_not_reversible. A POST: one Idempotency-Key for all its attempts, so the money moves back once.
func (s *TransfersService) Reverse(ctx context.Context, id string, params plinthapi.CreateTransferReversalRequest, opts ...RequestOption) (*plinthapi.TransferReversal, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransferReversal, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.CreateTransferReversal(ctx, id).CreateTransferReversalRequest(params).Execute()
	})
}

// ListReversalsPage fetches one page of a transfer's reversals, newest first.
func (s *TransfersService) ListReversalsPage(ctx context.Context, id string, p ListParams, opts ...RequestOption) (*plinthapi.TransferReversalList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransferReversalList, *http.Response, error) {
		return withPage(s.c.api.FintechTransfersAPI.ListTransferReversals(ctx, id), p).Execute()
	})
}

// ListReversals iterates over every reversal of a transfer, newest first.
func (s *TransfersService) ListReversals(ctx context.Context, id string, p ListParams) iter.Seq2[*plinthapi.TransferReversal, error] {
	return paginate(ctx, p, func(ctx context.Context, lp ListParams) ([]plinthapi.TransferReversal, bool, error) {
		page, _, err := s.ListReversalsPage(ctx, id, lp)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(r *plinthapi.TransferReversal) string { return r.Id })
}

// RetrieveReversal fetches one reversal (trr_…) of the transfer id.
func (s *TransfersService) RetrieveReversal(ctx context.Context, id, reversalID string, opts ...RequestOption) (*plinthapi.TransferReversal, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransferReversal, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.RetrieveTransferReversal(ctx, id, reversalID).Execute()
	})
}
