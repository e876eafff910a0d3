//! The request log (docs/api.md#the-request-log), `/v1/requests`: every request made with the organisation's keys,
//! newest first. An entry is written a few hundred milliseconds after its answer, so a request just made may not be
//! listed yet.

use reqwest::Method;

use crate::apis::requests_api as requests;
use crate::client::{Client, RequestOptions};
use crate::error::{Error, Response};
use crate::filters::{query, Created};
use crate::list::{pages, ListIter, ListParams};
use crate::models;

/// The filters of `requests().list` and `list_page`, all optional and combined:
/// `RequestFilter::default().method("POST").status(409).created(Created::default().gte("2026-11-25T00:00Z"))`.
#[derive(Debug, Clone, Default)]
pub struct RequestFilter {
    /// Only answers with this HTTP status, e.g. 409.
    pub status: Option<u16>,
    /// Only requests with this method: `GET`, `HEAD`, `POST` or `DELETE`.
    pub method: Option<String>,
    /// Only requests made within these bounds.
    pub created: Option<Created>,
}

impl RequestFilter {
    pub fn status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }
    pub fn method(mut self, method: impl Into<String>) -> Self {
        self.method = Some(method.into());
        self
    }
    pub fn created(mut self, created: Created) -> Self {
        self.created = Some(created);
        self
    }
}

/// `/v1/requests`: `client.requests()`.
pub struct Requests<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Requests<'a> {
    /// `listRequests`: every recorded request that passes `filter` (`RequestFilter::default()` for all), newest
    /// first, a page at a time.
    pub fn list(&self, filter: RequestFilter, params: ListParams) -> ListIter<'a, models::RequestLog> {
        let fetch = move |client: &'a Client, params: ListParams| {
            let filter = filter.clone();
            async move {
                let page = client.requests().list_page(filter, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |r| r.id.clone())
    }

    /// `listRequests`: one page. The filters go out as the other lists' do (`created[gte]=…`; see `filters.rs`).
    pub async fn list_page(&self, filter: RequestFilter, params: ListParams) -> Result<Response<models::RequestLogList>, Error> {
        let status = filter.status.map(|s| s.to_string());
        let q = query(&params, &[("status", status.as_deref()), ("method", filter.method.as_deref())], filter.created.as_ref(), &Default::default());
        self.client.send(Method::GET, &format!("/v1/requests{q}"), None, RequestOptions::default()).await
    }

    /// `retrieveRequest`: one request, with its body, by the `Request-Id` of its answer.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::RequestLog>, Error> {
        let p = requests::RetrieveRequestParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, requests::retrieve_request(&self.client.config, p)).await
    }
}
