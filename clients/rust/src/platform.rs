//! Webhook endpoints' method whose shape the generated layer (operations.rs) cannot give: the update, whose
//! metadata change the generated request cannot carry.

use reqwest::Method;

use crate::apis::webhooks_api as webhooks;
use crate::client::RequestOptions;
use crate::error::{Error, Response};
use crate::filters::{encode, MetadataUpdate};
use crate::models;
use crate::operations::WebhookEndpoints;

impl<'a> WebhookEndpoints<'a> {
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
}
