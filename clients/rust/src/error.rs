//! What a call answers: a [`Response`] around the decoded body, or an [`Error`].

use std::fmt;
use std::ops::Deref;

use serde::Deserialize;

use crate::apis;
use crate::transport::CallInfo;

/// A successful result with what the HTTP response said about it. Derefs to the decoded body, so
/// `account.id` works on a `Response<Account>`.
#[derive(Debug, Clone)]
pub struct Response<T> {
    /// The decoded body (also reachable through `Deref`).
    pub inner: T,
    /// The `Request-Id` header, `req_…`: quote it to support.
    pub request_id: Option<String>,
    /// `Idempotent-Replayed: true`: the stored response of an earlier request with the same key.
    pub replayed: bool,
    /// How many times the layer retried before this response.
    pub retries: u32,
    pub http_status: u16,
}

impl<T> Deref for Response<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> Response<T> {
    pub fn into_inner(self) -> T {
        self.inner
    }

    /// The same response around another body, or the error `f` finds in this one (`f` sees the metadata).
    pub(crate) fn try_map<U>(self, f: impl FnOnce(T, &Response<()>) -> Result<U, Error>) -> Result<Response<U>, Error> {
        let Response { inner, request_id, replayed, retries, http_status } = self;
        let meta = Response { inner: (), request_id, replayed, retries, http_status };
        let inner = f(inner, &meta)?;
        Ok(Response { inner, request_id: meta.request_id, replayed: meta.replayed, retries: meta.retries, http_status: meta.http_status })
    }
}

/// One offending input of a request that had several.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ErrorItem {
    pub code: String,
    pub param: Option<String>,
    pub detail: String,
}

/// The one error type for every problem the server answers (RFC 9457). `code` is an open string: match the codes
/// you handle and treat the others by `status`.
#[derive(Debug, Clone, Default)]
pub struct ApiError {
    pub status: u16,
    pub code: String,
    pub param: Option<String>,
    pub errors: Vec<ErrorItem>,
    pub request_id: Option<String>,
    pub r#type: Option<String>,
    pub title: Option<String>,
    pub detail: Option<String>,
    /// The raw response body.
    pub body: String,
    pub retries: u32,
}

impl ApiError {
    pub(crate) fn from_body(status: u16, body: &str, call: &CallInfo) -> ApiError {
        // Decoded loosely: whatever the server adds (fields, codes) must not stop the error from surfacing.
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Problem {
            r#type: Option<String>,
            title: Option<String>,
            detail: Option<String>,
            code: Option<String>,
            param: Option<String>,
            errors: Option<Vec<ErrorItem>>,
            request_id: Option<String>,
        }
        let p: Problem = serde_json::from_str(body).unwrap_or_default();
        ApiError {
            status,
            code: p.code.unwrap_or_default(),
            param: p.param,
            errors: p.errors.unwrap_or_default(),
            request_id: p.request_id.or_else(|| call.request_id.clone()),
            r#type: p.r#type,
            title: p.title,
            detail: p.detail.or_else(|| Some(body.to_owned()).filter(|b| !b.is_empty())),
            body: body.to_owned(),
            retries: call.retries,
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "plinth: {} {}", self.status, self.code)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        if let Some(param) = &self.param {
            write!(f, " (param {param})")?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " [{id}]")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

/// What a call can fail with: the server's answer ([`Error::Api`]), or no usable answer at all.
#[derive(Debug)]
pub enum Error {
    /// The server answered with a problem (4xx/5xx).
    Api(ApiError),
    /// No response: connection refused or reset, timeout (after the retries).
    Transport(Box<dyn std::error::Error + Send + Sync>),
    /// A success response whose body is not the JSON expected.
    Decode(serde_json::Error),
    /// An idempotent replay of a request that created a secret (an API key's `key`, a webhook endpoint's `secret`):
    /// the server never stores a secret, so the replay carries none. The object exists; see [`SecretWithheld`].
    SecretWithheld(SecretWithheld),
}

/// The answer to a create (or a secret rotation) was an idempotent replay (`Idempotent-Replayed: true`, the same
/// `Idempotency-Key` sent again, or a retry whose first answer was lost), so it has no secret in it. The object
/// exists: revoke the key and create another, or rotate the endpoint's secret.
#[derive(Debug, Clone)]
pub struct SecretWithheld {
    /// `api_key` or `webhook_endpoint`.
    pub object: String,
    /// The id of the key or endpoint whose secret this answer does not carry.
    pub id: String,
    pub request_id: Option<String>,
}

impl fmt::Display for SecretWithheld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let remedy = match self.object.as_str() {
            "api_key" => "revoke the key and create another",
            "account_number" => "disable the account number and create another",
            _ => "rotate the endpoint's secret",
        };
        write!(f, "plinth: the answer for {} {} is an idempotent replay (Idempotent-Replayed: true), and the server shows a secret only in the first answer: {remedy}", self.object, self.id)
    }
}

impl std::error::Error for SecretWithheld {}

impl Error {
    /// The problem the server answered, if that is what this is.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Error::Api(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Api(e) => e.fmt(f),
            Error::Transport(e) => write!(f, "plinth: transport: {e}"),
            Error::Decode(e) => write!(f, "plinth: decoding the response: {e}"),
            Error::SecretWithheld(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Api(e) => Some(e),
            Error::Transport(e) => Some(e.as_ref()),
            Error::Decode(e) => Some(e),
            Error::SecretWithheld(e) => Some(e),
        }
    }
}

pub(crate) fn convert<T: fmt::Debug>(error: apis::Error<T>, call: &CallInfo) -> Error {
    match error {
        apis::Error::ResponseError(r) => Error::Api(ApiError::from_body(r.status.as_u16(), &r.content, call)),
        apis::Error::Reqwest(e) => Error::Transport(Box::new(e)),
        apis::Error::ReqwestMiddleware(e) => Error::Transport(Box::new(e)),
        apis::Error::Io(e) => Error::Transport(Box::new(e)),
        apis::Error::Serde(e) => Error::Decode(e),
    }
}

