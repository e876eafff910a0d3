//! Transfers' methods whose shape the generated layer (operations.rs) cannot give: the update (a metadata change
//! the generated request cannot carry) and `post` (its lone optional amount, as an argument).

use reqwest::Method;

use crate::apis::fintech_transfers_api as transfers;
use crate::client::RequestOptions;
use crate::error::{Error, Response};
use crate::filters::{encode, MetadataUpdate};
use crate::models;
use crate::operations::Transfers;

impl<'a> Transfers<'a> {
    /// `updateTransfer`: its metadata changed or cleared (see [`MetadataUpdate`]), in any status.
    pub async fn update(&self, id: &str, metadata: MetadataUpdate, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let body = serde_json::json!({ "metadata": metadata });
        self.client.send(Method::POST, &format!("/v1/fintech/transfers/{}", encode(id)), Some(body), options).await
    }

    /// `postTransfer`: settles a pending transfer, all of it (`None`) or `amount` (1 to the pending amount; the rest
    /// goes back to the sender's available balance): `posted`, `posted_amount` set. 409 `transfer_not_pending` when it
    /// is not pending, `transfer_expired` after its expiry.
    pub async fn post(&self, id: &str, amount: Option<i64>, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let request = models::PostTransferRequest { amount };
        let p = transfers::PostTransferParams { id: id.to_owned(), idempotency_key: None, post_transfer_request: Some(request) };
        self.client.call(options, false, transfers::post_transfer(&self.client.config, p)).await
    }
}
