package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// EventsService: /v1/events, what happened, newest first.
type EventsService struct{ c *Client }

// ListPage fetches one page of events, newest first.
func (s *EventsService) ListPage(ctx context.Context, p EventListParams, opts ...RequestOption) (*plinthapi.EventList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.EventList, *http.Response, error) {
		req := withPage(s.c.api.EventsAPI.ListEvents(ctx), p.ListParams)
		if p.Type != "" {
			req = req.Type_(p.Type)
		}
		if !p.Created.isZero() {
			req = req.Created(p.Created.forEvents())
		}
		return req.Execute()
	})
}

// List iterates over every event (Type: only that one), newest first: sequences decrease.
func (s *EventsService) List(ctx context.Context, p EventListParams) iter.Seq2[*plinthapi.Event, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.Event, bool, error) {
		filters := p // every filter, on every page
		filters.ListParams = lp
		page, _, err := s.ListPage(ctx, filters)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(e *plinthapi.Event) string { return e.Id })
}

// Retrieve fetches one event by id (evt_…).
func (s *EventsService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Event, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Event, *http.Response, error) {
		return s.c.api.EventsAPI.RetrieveEvent(ctx, id).Execute()
	})
}

// ListDeliveriesPage fetches one page of an event's deliveries, to every endpoint.
func (s *EventsService) ListDeliveriesPage(ctx context.Context, id string, p ListParams, opts ...RequestOption) (*plinthapi.WebhookDeliveryList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookDeliveryList, *http.Response, error) {
		return withPage(s.c.api.EventsAPI.ListEventDeliveries(ctx, id), p).Execute()
	})
}

// ListDeliveries iterates over every delivery of an event, newest first.
func (s *EventsService) ListDeliveries(ctx context.Context, id string, p ListParams) iter.Seq2[*plinthapi.WebhookDelivery, error] {
	return paginate(ctx, p, func(ctx context.Context, lp ListParams) ([]plinthapi.WebhookDelivery, bool, error) {
		page, _, err := s.ListDeliveriesPage(ctx, id, lp)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(d *plinthapi.WebhookDelivery) string { return d.Id })
}
