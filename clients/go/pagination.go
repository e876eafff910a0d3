package plinth

import (
	"context"
	"iter"
)

// ListParams selects a page: its size and where it starts. Every list has two methods: List iterates over every
// item, fetching pages of Limit as the loop consumes them — from StartingAfter (or the newest) the pages walk
// older; from EndingBefore they walk newer, each page ending before the first id of the one before — and ListPage
// fetches one page. Every page is newest first.
type ListParams struct {
	Limit         int32  // page size, 1–100; 0 means the server's default
	StartingAfter string // an id: the items just older than it
	EndingBefore  string // an id: the items just newer than it (still newest first)
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

// paginate yields every item of every page, following the cursor from page to page while has_more. The first
// error is yielded once and ends the iteration.
func paginate[T any](ctx context.Context, p ListParams, page func(context.Context, ListParams) ([]T, bool, error), id func(*T) string) iter.Seq2[*T, error] {
	newer := p.EndingBefore != ""
	if newer {
		p.StartingAfter = ""
	}
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
			if newer {
				p.EndingBefore = id(&items[0])
			} else {
				p.StartingAfter = id(&items[len(items)-1])
			}
		}
	}
}
