//! Accounts' methods whose shape the generated layer (operations.rs) cannot give: the update, whose metadata
//! change the generated request cannot carry.

use reqwest::Method;

use crate::client::RequestOptions;
use crate::error::{Error, Response};
use crate::filters::{encode, MetadataUpdate};
use crate::models;
use crate::operations::Accounts;

impl<'a> Accounts<'a> {
    /// `updateAccount`: its metadata changed (`Some(MetadataUpdate::changes(…))`) or cleared
    /// (`Some(MetadataUpdate::ClearAll)`), its nickname set (`Some("Payroll")`) or removed (`Some("")`); either or
    /// both (`None` leaves it). Allowed on a closed account. The generated request cannot carry the metadata (its
    /// "changes or `\"\"`" schema became an empty struct), so the layer sends the body itself.
    pub async fn update(&self, id: &str, metadata: Option<MetadataUpdate>, nickname: Option<&str>, options: RequestOptions) -> Result<Response<models::Account>, Error> {
        let mut body = serde_json::Map::new();
        if let Some(metadata) = metadata {
            body.insert("metadata".into(), serde_json::to_value(metadata).expect("metadata serialises"));
        }
        if let Some(nickname) = nickname {
            body.insert("nickname".into(), nickname.into());
        }
        self.client.send(Method::POST, &format!("/v1/fintech/accounts/{}", encode(id)), Some(body.into()), options).await
    }
}
