package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// WebhookEndpointsService: /v1/webhook_endpoints, where events are sent.
type WebhookEndpointsService struct{ c *Client }

// Create adds an endpoint; the result's Secret (whsec_…, a plain string) signs its deliveries: keep it.
// EnabledEvents lists event types, or "*" for every type.
func (s *WebhookEndpointsService) Create(ctx context.Context, params plinthapi.CreateWebhookEndpointRequest, opts ...RequestOption) (*WebhookEndpointWithSecret, *Response, error) {
	created, resp, err := call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookEndpointWithSecret, *http.Response, error) {
		return s.c.api.WebhooksAPI.CreateWebhookEndpoint(ctx).CreateWebhookEndpointRequest(params).Execute()
	})
	if err != nil {
		return nil, resp, err
	}
	return newEndpointWithSecret(created, resp), resp, nil
}

// Retrieve fetches one endpoint by id (we_…); never its secret.
func (s *WebhookEndpointsService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.WebhookEndpoint, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookEndpoint, *http.Response, error) {
		return s.c.api.WebhooksAPI.RetrieveWebhookEndpoint(ctx, id).Execute()
	})
}

// ListPage fetches one page of endpoints, newest first.
func (s *WebhookEndpointsService) ListPage(ctx context.Context, p ListParams, opts ...RequestOption) (*plinthapi.WebhookEndpointList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookEndpointList, *http.Response, error) {
		return withPage(s.c.api.WebhooksAPI.ListWebhookEndpoints(ctx), p).Execute()
	})
}

// List iterates over every endpoint, newest first.
func (s *WebhookEndpointsService) List(ctx context.Context, p ListParams) iter.Seq2[*plinthapi.WebhookEndpoint, error] {
	return paginate(ctx, p, func(ctx context.Context, lp ListParams) ([]plinthapi.WebhookEndpoint, bool, error) {
		page, _, err := s.ListPage(ctx, lp)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(e *plinthapi.WebhookEndpoint) string { return e.Id })
}

// Update changes the fields that are set (Url, EnabledEvents, Description, Status: enabled or disabled).
func (s *WebhookEndpointsService) Update(ctx context.Context, id string, params plinthapi.UpdateWebhookEndpointRequest, opts ...RequestOption) (*plinthapi.WebhookEndpoint, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookEndpoint, *http.Response, error) {
		return s.c.api.WebhooksAPI.UpdateWebhookEndpoint(ctx, id).UpdateWebhookEndpointRequest(params).Execute()
	})
}

// Delete removes an endpoint; its pending deliveries are dropped.
func (s *WebhookEndpointsService) Delete(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.DeletedWebhookEndpoint, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.DeletedWebhookEndpoint, *http.Response, error) {
		return s.c.api.WebhooksAPI.DeleteWebhookEndpoint(ctx, id).Execute()
	})
}

// RotateSecret gives the endpoint a new Secret; the previous one keeps signing for ExpirePreviousInSeconds
// (default: the server's).
func (s *WebhookEndpointsService) RotateSecret(ctx context.Context, id string, params plinthapi.RotateWebhookEndpointSecretRequest, opts ...RequestOption) (*WebhookEndpointWithSecret, *Response, error) {
	rotated, resp, err := call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookEndpointWithSecret, *http.Response, error) {
		return s.c.api.WebhooksAPI.RotateWebhookEndpointSecret(ctx, id).RotateWebhookEndpointSecretRequest(params).Execute()
	})
	if err != nil {
		return nil, resp, err
	}
	return newEndpointWithSecret(rotated, resp), resp, nil
}

// Test sends a webhook_endpoint.test event to this endpoint only; the result is the event.
func (s *WebhookEndpointsService) Test(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Event, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Event, *http.Response, error) {
		return s.c.api.WebhooksAPI.TestWebhookEndpoint(ctx, id).Execute()
	})
}

// ListDeliveriesPage fetches one page of the endpoint's deliveries, newest first.
func (s *WebhookEndpointsService) ListDeliveriesPage(ctx context.Context, id string, p DeliveryListParams, opts ...RequestOption) (*plinthapi.WebhookDeliveryList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookDeliveryList, *http.Response, error) {
		req := withPage(s.c.api.WebhooksAPI.ListWebhookEndpointDeliveries(ctx, id), p.ListParams)
		if p.Status != "" {
			req = req.Status(p.Status)
		}
		return req.Execute()
	})
}

// ListDeliveries iterates over every delivery to the endpoint (Status: only those in it), newest first.
func (s *WebhookEndpointsService) ListDeliveries(ctx context.Context, id string, p DeliveryListParams) iter.Seq2[*plinthapi.WebhookDelivery, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.WebhookDelivery, bool, error) {
		page, _, err := s.ListDeliveriesPage(ctx, id, DeliveryListParams{ListParams: lp, Status: p.Status})
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(d *plinthapi.WebhookDelivery) string { return d.Id })
}

// WebhookDeliveriesService: /v1/webhook_deliveries, one attempt series of one event to one endpoint.
type WebhookDeliveriesService struct{ c *Client }

// Retry sends the delivery again now (a failed one starts a new round of attempts); the result is the delivery.
func (s *WebhookDeliveriesService) Retry(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.WebhookDelivery, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.WebhookDelivery, *http.Response, error) {
		return s.c.api.WebhooksAPI.RetryWebhookDelivery(ctx, id).Execute()
	})
}
