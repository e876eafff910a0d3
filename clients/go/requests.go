package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// RequestsService: /v1/requests, the request log, newest first (docs/api.md#the-request-log). An entry is written a few
// hundred milliseconds after its answer, so a request just made may not be listed yet.
type RequestsService struct{ c *Client }

// RequestListParams filters the request log; every filter given must hold.
type RequestListParams struct {
	ListParams
	Status  int32         // only answers with this HTTP status, e.g. 409; 0 is no filter
	Method  string        // only requests with this method: GET, HEAD, POST or DELETE
	Created CreatedFilter // only requests made within these bounds
}

// ListPage fetches one page of recorded requests, newest first.
func (s *RequestsService) ListPage(ctx context.Context, p RequestListParams, opts ...RequestOption) (*plinthapi.RequestLogList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.RequestLogList, *http.Response, error) {
		req := withPage(s.c.api.RequestsAPI.ListRequests(ctx), p.ListParams)
		if p.Status != 0 {
			req = req.Status(p.Status)
		}
		if p.Method != "" {
			req = req.Method(p.Method)
		}
		if !p.Created.isZero() {
			req = req.Created(p.Created.forAccounts())
		}
		return req.Execute()
	})
}

// List iterates over every recorded request the filters keep, newest first.
func (s *RequestsService) List(ctx context.Context, p RequestListParams) iter.Seq2[*plinthapi.RequestLog, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.RequestLog, bool, error) {
		filters := p // every filter, on every page
		filters.ListParams = lp
		page, _, err := s.ListPage(ctx, filters)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(r *plinthapi.RequestLog) string { return r.Id })
}

// Retrieve fetches one recorded request, with its body, by the Request-Id of its answer (req_…).
func (s *RequestsService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.RequestLog, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.RequestLog, *http.Response, error) {
		return s.c.api.RequestsAPI.RetrieveRequest(ctx, id).Execute()
	})
}
