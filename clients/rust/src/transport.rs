//! The middleware every request of the client goes through, generated or raw: the `Idempotency-Key`, the retries,
//! and what the response said (`Request-Id`, `Idempotent-Replayed`) for the call that sent it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use http::Extensions;
use reqwest::header::HeaderValue;
use reqwest::{Method, StatusCode};
use reqwest_middleware::{Middleware, Next};
use serde::Deserialize;

/// What travels between a call of the layer and the middleware, through a task-local (the generated functions
/// have no way to pass it).
#[derive(Debug, Default, Clone)]
pub(crate) struct CallInfo {
    pub(crate) idempotency_key: Option<String>,
    pub(crate) no_idempotency_key: bool,
    pub(crate) retries: u32,
    pub(crate) request_id: Option<String>,
    pub(crate) replayed: bool,
    pub(crate) status: u16,
}

tokio::task_local! {
    pub(crate) static CALL: Arc<Mutex<CallInfo>>;
}

pub(crate) struct RetryPolicy {
    pub(crate) max_retries: u32,
    pub(crate) min_backoff: Duration,
    pub(crate) max_backoff: Duration,
    pub(crate) max_retry_after: Duration,
}

impl RetryPolicy {
    /// Exponential ceiling with jitter: uniform in [ceiling/2, ceiling].
    fn backoff(&self, attempt: u32) -> Duration {
        let ceiling = self.min_backoff.saturating_mul(1 << attempt.min(16)).min(self.max_backoff);
        ceiling / 2 + ceiling.mul_f64(fastrand::f64() / 2.0)
    }
}

fn retry_after(value: Option<&HeaderValue>) -> Option<Duration> {
    let value = value?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(SystemTime::now()).unwrap_or_default())
}

#[async_trait::async_trait]
impl Middleware for RetryPolicy {
    async fn handle(&self, mut req: reqwest::Request, extensions: &mut Extensions, next: Next<'_>) -> reqwest_middleware::Result<reqwest::Response> {
        let call = CALL.try_with(Arc::clone).unwrap_or_default();
        let (key, skip) = {
            let c = call.lock().unwrap();
            (c.idempotency_key.clone(), c.no_idempotency_key)
        };
        if req.method() == Method::POST && !skip && !req.headers().contains_key("Idempotency-Key") {
            let key = key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
            let value = HeaderValue::from_str(&key).map_err(|e| reqwest_middleware::Error::Middleware(e.into()))?;
            req.headers_mut().insert("Idempotency-Key", value);
        }
        let mut attempt = 0;
        loop {
            let retryable_request = attempt < self.max_retries;
            let this = match req.try_clone() {
                Some(r) if retryable_request => r,
                _ => return self.finish(next.clone().run(req, extensions).await, &call).await,
            };
            match next.clone().run(this, extensions).await {
                Err(reqwest_middleware::Error::Reqwest(e)) if e.is_connect() || e.is_timeout() || e.is_request() => {
                    tokio::time::sleep(self.backoff(attempt)).await;
                }
                Err(e) => return Err(e),
                Ok(resp) => {
                    let status = resp.status();
                    let mut wait = None;
                    let resp = if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
                        wait = Some(resp.headers().get("Retry-After").cloned());
                        resp
                    } else if status == StatusCode::CONFLICT {
                        // Only 409 idempotency_request_in_progress is worth another attempt: read the code.
                        let (resp, body) = buffer(resp).await?;
                        #[derive(Deserialize)]
                        struct Code {
                            code: Option<String>,
                        }
                        let code = serde_json::from_slice::<Code>(&body).ok().and_then(|c| c.code);
                        if code.as_deref() == Some("idempotency_request_in_progress") {
                            wait = Some(resp.headers().get("Retry-After").cloned());
                        }
                        resp
                    } else {
                        resp
                    };
                    let Some(retry_after_header) = wait else { return self.finish(Ok(resp), &call).await };
                    let delay = match retry_after(retry_after_header.as_ref()) {
                        Some(d) if d > self.max_retry_after => return self.finish(Ok(resp), &call).await,
                        Some(d) => d + Duration::from_millis(fastrand::u64(0..100)),
                        None => self.backoff(attempt),
                    };
                    drop(resp);
                    tokio::time::sleep(delay).await;
                }
            }
            attempt += 1;
            call.lock().unwrap().retries += 1;
        }
    }
}

impl RetryPolicy {
    async fn finish(&self, result: reqwest_middleware::Result<reqwest::Response>, call: &Arc<Mutex<CallInfo>>) -> reqwest_middleware::Result<reqwest::Response> {
        if let Ok(resp) = &result {
            let mut c = call.lock().unwrap();
            c.status = resp.status().as_u16();
            c.request_id = resp.headers().get("Request-Id").and_then(|v| v.to_str().ok()).map(str::to_owned);
            c.replayed = resp.headers().get("Idempotent-Replayed").and_then(|v| v.to_str().ok()) == Some("true");
        }
        result
    }
}

/// Reads a response body and rebuilds an equivalent response around it.
async fn buffer(resp: reqwest::Response) -> reqwest_middleware::Result<(reqwest::Response, bytes::Bytes)> {
    let status = resp.status();
    let version = resp.version();
    let headers = resp.headers().clone();
    let body = resp.bytes().await?;
    let mut rebuilt = http::Response::builder().status(status).version(version);
    *rebuilt.headers_mut().expect("a fresh builder has headers") = headers;
    let rebuilt = rebuilt.body(body.clone()).expect("status and headers came from a response");
    Ok((reqwest::Response::from(rebuilt), body))
}

