package plinth

import (
	"context"
	"iter"
)

// ListParams selects a page: its size and where it starts. Every list has two methods: List iterates over every
// item, newest first, fetching pages of Limit as the loop consumes them (from StartingAfter, or the newest;
// EndingBefore is for ListPage only), and ListPage fetches one page.
type ListParams struct {
	Limit         int32  // page size, 1–100; 0 means the server's default
	StartingAfter string // an id: the items just older than it
	EndingBefore  string // an id: the items just newer than it (still newest first); ListPage only
}

// AccountListParams filters the accounts list.
type AccountListParams struct {
	ListParams
	Status string // only accounts in this status: active, frozen, closed
}

// TransferListParams filters the transfers list.
type TransferListParams struct {
	ListParams
	AccountID string // only transfers from or to this account
}

// EventListParams filters the events list.
type EventListParams struct {
	ListParams
	Type string // only events of this type, e.g. fintech.account.created
}

// DeliveryListParams filters a webhook endpoint's deliveries.
type DeliveryListParams struct {
	ListParams
	Status string // only deliveries in this status: pending, succeeded, failed
}

// pageRequest is what every generated list request has.
type pageRequest[R any] interface {
	Limit(int32) R
	StartingAfter(string) R
	EndingBefore(string) R
}

// withPage sets the page parameters that are given on a generated list request.
func withPage[R pageRequest[R]](req R, p ListParams) R {
	if p.Limit > 0 {
		req = req.Limit(p.Limit)
	}
	if p.StartingAfter != "" {
		req = req.StartingAfter(p.StartingAfter)
	}
	if p.EndingBefore != "" {
		req = req.EndingBefore(p.EndingBefore)
	}
	return req
}

// paginate yields every item of every page, each page starting after the last id of the one before, while
// has_more. The first error is yielded once and ends the iteration.
func paginate[T any](ctx context.Context, p ListParams, page func(context.Context, ListParams) ([]T, bool, error), id func(*T) string) iter.Seq2[*T, error] {
	p.EndingBefore = ""
	return func(yield func(*T, error) bool) {
		for {
			items, more, err := page(ctx, p)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range items {
				if !yield(&items[i], nil) {
					return
				}
			}
			// An empty page that claims more would loop on the same cursor forever; stop instead.
			if !more || len(items) == 0 {
				return
			}
			p.StartingAfter = id(&items[len(items)-1])
		}
	}
}
