//! The client, its settings, and the two ways a call runs: a generated function inside a call scope, or a raw
//! request.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Method;

use crate::apis;
use crate::created::{CreatedApiKey, SignUp};
use crate::error::{convert, ApiError, Error, Response};
use crate::transport::{CallInfo, RetryPolicy, CALL};
use crate::{models, Configuration, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, VERSION};

/// Per-call options.
#[derive(Debug, Clone, Default)]
pub struct RequestOptions {
    /// Send this `Idempotency-Key` instead of a generated one (POST only).
    pub idempotency_key: Option<String>,
}

impl RequestOptions {
    pub fn idempotency_key(key: impl Into<String>) -> Self {
        RequestOptions { idempotency_key: Some(key.into()) }
    }
}

/// Talks to one Plinth server with one API key. Cheap to clone; safe to share between tasks.
#[derive(Clone)]
pub struct Client {
    pub(crate) config: Configuration,
}

/// Without the API key: a client printed in a log must not leak it.
impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("base_url", &self.config.base_path).finish_non_exhaustive()
    }
}

/// Builds a [`Client`]: `Client::builder().api_key(k).base_url(u).timeout(d).max_retries(n).build()`.
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    api_key: Option<String>,
    base_url: String,
    timeout: Duration,
    max_retries: u32,
    min_backoff: Duration,
    max_backoff: Duration,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            api_key: None,
            base_url: DEFAULT_BASE_URL.to_owned(),
            timeout: DEFAULT_TIMEOUT,
            max_retries: DEFAULT_MAX_RETRIES,
            min_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
        }
    }
}

impl ClientBuilder {
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }
    /// The server, e.g. `https://plinth.example.com` (no trailing `/v1`).
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into().trim_end_matches('/').to_owned();
        self
    }
    /// The timeout of each attempt (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
    /// How many times a failed attempt is retried (default 3; 0 disables retries).
    pub fn max_retries(mut self, n: u32) -> Self {
        self.max_retries = n;
        self
    }
    /// The first and the largest backoff between attempts (defaults 500 ms and 8 s).
    pub fn backoff(mut self, min: Duration, max: Duration) -> Self {
        self.min_backoff = min;
        self.max_backoff = max;
        self
    }
    pub fn build(self) -> Client {
        let http = reqwest::Client::builder()
            .timeout(self.timeout)
            .user_agent(format!("plinth-rust/{VERSION}"))
            .build()
            .expect("the TLS backend initialises");
        let policy = RetryPolicy {
            max_retries: self.max_retries,
            min_backoff: self.min_backoff,
            max_backoff: self.max_backoff,
            max_retry_after: Duration::from_secs(60),
        };
        let mut config = Configuration::new();
        config.base_path = self.base_url;
        config.user_agent = Some(format!("plinth-rust/{VERSION}"));
        config.client = reqwest_middleware::ClientBuilder::new(http).with(policy).build();
        config.bearer_access_token = self.api_key;
        Client { config }
    }
}

impl Client {
    /// A client with this key and every default (base URL http://127.0.0.1:8080: use the builder for another).
    pub fn new(api_key: impl Into<String>) -> Client {
        Client::builder().api_key(api_key).build()
    }

    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The generated functions' configuration ([`crate::apis`]), wired to this client's middleware, for what this
    /// layer does not wrap: `plinth::apis::…::op(client.configuration(), params)`.
    pub fn configuration(&self) -> &Configuration {
        &self.config
    }

    /// Runs one generated operation inside a call scope and maps its outcome.
    pub(crate) async fn call<T, E: fmt::Debug, F>(&self, options: RequestOptions, no_idempotency_key: bool, op: F) -> Result<Response<T>, Error>
    where
        F: std::future::Future<Output = Result<T, apis::Error<E>>>,
    {
        let info = Arc::new(Mutex::new(CallInfo { idempotency_key: options.idempotency_key, no_idempotency_key, ..Default::default() }));
        let result = CALL.scope(Arc::clone(&info), op).await;
        let info = info.lock().unwrap().clone();
        match result {
            Ok(inner) => Ok(Response { inner, request_id: info.request_id, replayed: info.replayed, retries: info.retries, http_status: info.status }),
            Err(e) => Err(convert(e, &info)),
        }
    }

    /// `sandboxSignup`: a new sandbox organisation and its first key, usable at once (`POST /v1/sandbox/signup`, no
    /// API key needed): `Client::sign_up(url, None).await?.api_key.key`. The one POST without an Idempotency-Key:
    /// the server refuses one there, so it is never replayed and the key is always in the answer.
    pub async fn sign_up(base_url: &str, name: Option<&str>) -> Result<Response<SignUp>, Error> {
        let anonymous = Client::builder().base_url(base_url).build();
        let mut request = models::SandboxSignupRequest::new();
        request.name = name.map(str::to_owned);
        let p = apis::api_keys_api::SandboxSignupParams { sandbox_signup_request: Some(request) };
        let answer = anonymous.call(RequestOptions::default(), true, apis::api_keys_api::sandbox_signup(&anonymous.config, p)).await?;
        answer.try_map(|s, meta| Ok(SignUp { org_id: s.org_id, api_key: CreatedApiKey::from_answer(s.api_key, meta)? }))
    }

    /// Sends any request through the same middleware (auth, retries, idempotency key): for fields or operations
    /// this client does not know yet. A problem answer comes back as [`Error::Api`].
    pub async fn raw(&self, method: Method, path: &str, body: Option<serde_json::Value>, options: RequestOptions) -> Result<Response<serde_json::Value>, Error> {
        self.send(method, path, body, options).await
    }

    /// One request through the middleware, its answer decoded into `T` (an empty body as JSON `null`): what
    /// [`Client::raw`] and the layer's own requests (the filtered lists, the metadata updates) share.
    pub(crate) async fn send<T: serde::de::DeserializeOwned>(&self, method: Method, path: &str, body: Option<serde_json::Value>, options: RequestOptions) -> Result<Response<T>, Error> {
        let info = Arc::new(Mutex::new(CallInfo { idempotency_key: options.idempotency_key, ..Default::default() }));
        let result = CALL
            .scope(Arc::clone(&info), async {
                let mut req = self.config.client.request(method, format!("{}{}", self.config.base_path, path));
                if let Some(token) = &self.config.bearer_access_token {
                    req = req.bearer_auth(token);
                }
                if let Some(body) = &body {
                    req = req.json(body);
                }
                let resp = req.send().await.map_err(|e| Error::Transport(Box::new(e)))?;
                let status = resp.status().as_u16();
                let text = resp.text().await.map_err(|e| Error::Transport(Box::new(e)))?;
                Ok::<_, Error>((status, text))
            })
            .await;
        let info = info.lock().unwrap().clone();
        let (status, text) = result?;
        if status >= 400 {
            return Err(Error::Api(ApiError::from_body(status, &text, &info)));
        }
        let inner = serde_json::from_str(if text.is_empty() { "null" } else { &text }).map_err(Error::Decode)?;
        Ok(Response { inner, request_id: info.request_id, replayed: info.replayed, retries: info.retries, http_status: status })
    }
}

