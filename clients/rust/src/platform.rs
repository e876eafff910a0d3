//! What every product shares: API keys, events, webhook endpoints and their deliveries.

use reqwest::Method;

use crate::apis::{api_keys_api as keys, events_api as events, webhooks_api as webhooks};
use crate::client::{Client, RequestOptions};
use crate::created::{CreatedApiKey, CreatedWebhookEndpoint};
use crate::error::{Error, Response};
use crate::filters::{encode, query, EventFilter, MetadataUpdate};
use crate::list::{pages, ListIter, ListParams};
use crate::models;

/// `/v1/api_keys`: `client.api_keys()`.
pub struct ApiKeys<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> ApiKeys<'a> {
    /// `createApiKey` (`mode`, `name` and `permissions` optional: `CreateApiKeyRequest::new()`): the key and its
    /// secret, [`CreatedApiKey::key`], shown once. An idempotent replay has no secret: [`Error::SecretWithheld`].
    /// With `permissions` (each group `None`, `Read` or `Write`; a group left out is none) it is a restricted key,
    /// `rk_test_…`, that may do only that; without, a full key.
    pub async fn create(&self, params: models::CreateApiKeyRequest, options: RequestOptions) -> Result<Response<CreatedApiKey>, Error> {
        let p = keys::CreateApiKeyParams { create_api_key_request: Some(params), idempotency_key: None };
        let answer = self.client.call(options, false, keys::create_api_key(&self.client.config, p)).await?;
        answer.try_map(CreatedApiKey::from_answer)
    }

    /// `retrieveApiKey`: the key without its secret.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::ApiKey>, Error> {
        let p = keys::RetrieveApiKeyParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, keys::retrieve_api_key(&self.client.config, p)).await
    }

    /// `revokeApiKey` by its id (`key_…`): it stops working at once.
    pub async fn revoke(&self, id: &str, options: RequestOptions) -> Result<Response<models::ApiKey>, Error> {
        let p = keys::RevokeApiKeyParams { id: id.to_owned(), idempotency_key: None };
        self.client.call(options, false, keys::revoke_api_key(&self.client.config, p)).await
    }

    /// `listApiKeys`: every key of the caller's mode, newest first, a page at a time.
    pub fn list(&self, params: ListParams) -> ListIter<'a, models::ApiKey> {
        let fetch = |client: &'a Client, params: ListParams| async move {
            let page = client.api_keys().list_page(params).await?.into_inner();
            Ok((page.data, page.has_more))
        };
        pages(self.client, params, fetch, |k| k.id.clone())
    }

    /// `listApiKeys`: one page.
    pub async fn list_page(&self, params: ListParams) -> Result<Response<models::ApiKeyList>, Error> {
        let p = keys::ListApiKeysParams { limit: params.limit, starting_after: params.starting_after, ending_before: params.ending_before };
        self.client.call(RequestOptions::default(), false, keys::list_api_keys(&self.client.config, p)).await
    }
}

/// `/v1/events`, newest first, numbered by `sequence`: `client.events()`.
pub struct Events<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Events<'a> {
    /// `listEvents`: every event that passes `filter` (`EventFilter::default()` for all), newest first, a page at a
    /// time.
    pub fn list(&self, filter: EventFilter, params: ListParams) -> ListIter<'a, models::Event> {
        let fetch = move |client: &'a Client, params: ListParams| {
            let filter = filter.clone();
            async move {
                let page = client.events().list_page(filter, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |e| e.id.clone())
    }

    /// `listEvents`: one page.
    pub async fn list_page(&self, filter: EventFilter, params: ListParams) -> Result<Response<models::EventList>, Error> {
        let q = query(&params, &[("type", filter.r#type.as_deref())], filter.created.as_ref(), &Default::default());
        self.client.send(Method::GET, &format!("/v1/events{q}"), None, RequestOptions::default()).await
    }

    /// `retrieveEvent`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::Event>, Error> {
        let p = events::RetrieveEventParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, events::retrieve_event(&self.client.config, p)).await
    }

    /// `listEventDeliveries`: every delivery of one event (to every endpoint), a page at a time.
    pub fn list_deliveries(&self, id: &str, params: ListParams) -> ListIter<'a, models::WebhookDelivery> {
        let id = id.to_owned();
        let fetch = move |client: &'a Client, params: ListParams| {
            let id = id.clone();
            async move {
                let page = client.events().list_deliveries_page(&id, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |d| d.id.clone())
    }

    /// `listEventDeliveries`: one page.
    pub async fn list_deliveries_page(&self, id: &str, params: ListParams) -> Result<Response<models::WebhookDeliveryList>, Error> {
        let p = events::ListEventDeliveriesParams {
            id: id.to_owned(),
            limit: params.limit,
            starting_after: params.starting_after,
            ending_before: params.ending_before,
        };
        self.client.call(RequestOptions::default(), false, events::list_event_deliveries(&self.client.config, p)).await
    }
}

/// `/v1/webhook_endpoints`, where events are sent, signed: `client.webhook_endpoints()`.
pub struct WebhookEndpoints<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> WebhookEndpoints<'a> {
    /// `createWebhookEndpoint`: the endpoint and its signing secret, [`CreatedWebhookEndpoint::secret`], shown once.
    /// An idempotent replay has no secret: [`Error::SecretWithheld`].
    pub async fn create(&self, params: models::CreateWebhookEndpointRequest, options: RequestOptions) -> Result<Response<CreatedWebhookEndpoint>, Error> {
        let p = webhooks::CreateWebhookEndpointParams { create_webhook_endpoint_request: params, idempotency_key: None };
        let answer = self.client.call(options, false, webhooks::create_webhook_endpoint(&self.client.config, p)).await?;
        answer.try_map(CreatedWebhookEndpoint::from_answer)
    }

    /// `retrieveWebhookEndpoint`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::WebhookEndpoint>, Error> {
        let p = webhooks::RetrieveWebhookEndpointParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, webhooks::retrieve_webhook_endpoint(&self.client.config, p)).await
    }

    /// `updateWebhookEndpoint`: `url`, `enabled_events`, `description`, `status` from `params`, and its metadata
    /// changed or cleared if `metadata` is given. The generated request's own `metadata` is an empty struct (its
    /// schema is "changes, or `\"\"`"), so with metadata the layer sends the body itself.
    pub async fn update(
        &self,
        id: &str,
        params: models::UpdateWebhookEndpointRequest,
        metadata: Option<MetadataUpdate>,
        options: RequestOptions,
    ) -> Result<Response<models::WebhookEndpoint>, Error> {
        if let Some(metadata) = metadata {
            let mut body = serde_json::to_value(&params).map_err(Error::Decode)?;
            body["metadata"] = serde_json::to_value(metadata).map_err(Error::Decode)?;
            return self.client.send(Method::POST, &format!("/v1/webhook_endpoints/{}", encode(id)), Some(body), options).await;
        }
        let p = webhooks::UpdateWebhookEndpointParams { id: id.to_owned(), update_webhook_endpoint_request: params, idempotency_key: None };
        self.client.call(options, false, webhooks::update_webhook_endpoint(&self.client.config, p)).await
    }

    /// `deleteWebhookEndpoint`: gone, with its deliveries.
    pub async fn delete(&self, id: &str) -> Result<Response<models::DeletedWebhookEndpoint>, Error> {
        let p = webhooks::DeleteWebhookEndpointParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, webhooks::delete_webhook_endpoint(&self.client.config, p)).await
    }

    /// `rotateWebhookEndpointSecret`: a new secret; the previous one keeps signing beside it for
    /// `expire_previous_in_seconds` (`RotateWebhookEndpointSecretRequest::new()`: a day).
    pub async fn rotate_secret(&self, id: &str, params: models::RotateWebhookEndpointSecretRequest, options: RequestOptions) -> Result<Response<CreatedWebhookEndpoint>, Error> {
        let p = webhooks::RotateWebhookEndpointSecretParams { id: id.to_owned(), rotate_webhook_endpoint_secret_request: Some(params), idempotency_key: None };
        let answer = self.client.call(options, false, webhooks::rotate_webhook_endpoint_secret(&self.client.config, p)).await?;
        answer.try_map(CreatedWebhookEndpoint::from_answer)
    }

    /// `testWebhookEndpoint`: sends a `webhook_endpoint.test` event to this endpoint only; the event.
    pub async fn test(&self, id: &str, options: RequestOptions) -> Result<Response<models::Event>, Error> {
        let p = webhooks::TestWebhookEndpointParams { id: id.to_owned(), idempotency_key: None };
        self.client.call(options, false, webhooks::test_webhook_endpoint(&self.client.config, p)).await
    }

    /// `listWebhookEndpoints`: every endpoint, newest first, a page at a time.
    pub fn list(&self, params: ListParams) -> ListIter<'a, models::WebhookEndpoint> {
        let fetch = |client: &'a Client, params: ListParams| async move {
            let page = client.webhook_endpoints().list_page(params).await?.into_inner();
            Ok((page.data, page.has_more))
        };
        pages(self.client, params, fetch, |e| e.id.clone())
    }

    /// `listWebhookEndpoints`: one page.
    pub async fn list_page(&self, params: ListParams) -> Result<Response<models::WebhookEndpointList>, Error> {
        let p = webhooks::ListWebhookEndpointsParams { limit: params.limit, starting_after: params.starting_after, ending_before: params.ending_before };
        self.client.call(RequestOptions::default(), false, webhooks::list_webhook_endpoints(&self.client.config, p)).await
    }

    /// `listWebhookEndpointDeliveries`: every delivery to this endpoint (in `status` — `pending`, `succeeded`,
    /// `failed` — if given), newest first, a page at a time.
    pub fn list_deliveries(&self, id: &str, status: Option<&str>, params: ListParams) -> ListIter<'a, models::WebhookDelivery> {
        let (id, status) = (id.to_owned(), status.map(str::to_owned));
        let fetch = move |client: &'a Client, params: ListParams| {
            let (id, status) = (id.clone(), status.clone());
            async move {
                let page = client.webhook_endpoints().list_deliveries_page(&id, status.as_deref(), params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |d| d.id.clone())
    }

    /// `listWebhookEndpointDeliveries`: one page.
    pub async fn list_deliveries_page(&self, id: &str, status: Option<&str>, params: ListParams) -> Result<Response<models::WebhookDeliveryList>, Error> {
        let p = webhooks::ListWebhookEndpointDeliveriesParams {
            id: id.to_owned(),
            limit: params.limit,
            starting_after: params.starting_after,
            ending_before: params.ending_before,
            status: status.map(str::to_owned),
        };
        self.client.call(RequestOptions::default(), false, webhooks::list_webhook_endpoint_deliveries(&self.client.config, p)).await
    }
}

/// `/v1/webhook_deliveries` (listed from their endpoint or event): `client.webhook_deliveries()`.
pub struct WebhookDeliveries<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> WebhookDeliveries<'a> {
    /// `retryWebhookDelivery`: one attempt now, outside the schedule; the delivery with its attempts.
    pub async fn retry(&self, id: &str, options: RequestOptions) -> Result<Response<models::WebhookDelivery>, Error> {
        let p = webhooks::RetryWebhookDeliveryParams { id: id.to_owned(), idempotency_key: None };
        self.client.call(options, false, webhooks::retry_webhook_delivery(&self.client.config, p)).await
    }
}
