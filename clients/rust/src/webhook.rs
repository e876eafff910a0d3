//! Verifying a webhook delivery (docs/api.md#webhooks, Standard Webhooks v1): HMAC-SHA256 from the RustCrypto `hmac`
//! and `sha2` crates, compared in constant time by `Mac::verify_slice`.
//!
//! ```no_run
//! # fn demo(secret: &str, headers: &http::HeaderMap, raw_body: &[u8]) -> Result<(), plinth::WebhookError> {
//! let event = plinth::verify_webhook(secret, headers, raw_body)?; // raw_body: the exact bytes received
//! println!("{} {}", event.id, event.r#type);
//! # Ok(()) }
//! ```

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use http::HeaderMap;
use sha2::Sha256;

use crate::models::Event;

/// How far a delivery's `webhook-timestamp` may be from now, either way, by default.
pub const DEFAULT_WEBHOOK_TOLERANCE: Duration = Duration::from_secs(5 * 60);

/// Why a delivery was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookError {
    /// `webhook-id`, `webhook-timestamp` or `webhook-signature` is missing (or not text).
    MissingHeaders,
    /// `webhook-timestamp` is not unix seconds.
    TimestampInvalid,
    /// `webhook-timestamp` is older than the tolerance.
    TimestampTooOld,
    /// `webhook-timestamp` is further in the future than the tolerance.
    TimestampTooNew,
    /// The secret is not `whsec_` followed by base64.
    SecretInvalid,
    /// No `v1,` signature matches the body.
    SignatureMismatch,
    /// The signature matches but the body is not an event.
    BodyInvalid(String),
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookError::MissingHeaders => write!(f, "webhook-id, webhook-timestamp and webhook-signature are required"),
            WebhookError::TimestampInvalid => write!(f, "webhook-timestamp is not unix seconds"),
            WebhookError::TimestampTooOld => write!(f, "webhook-timestamp is too old"),
            WebhookError::TimestampTooNew => write!(f, "webhook-timestamp is in the future"),
            WebhookError::SecretInvalid => write!(f, "the secret is not whsec_ followed by base64"),
            WebhookError::SignatureMismatch => write!(f, "no webhook-signature matches the body"),
            WebhookError::BodyInvalid(e) => write!(f, "the signed body is not an event: {e}"),
        }
    }
}

impl std::error::Error for WebhookError {}

/// [`verify_webhook_with`] with [`DEFAULT_WEBHOOK_TOLERANCE`] and the clock.
pub fn verify_webhook(secret: &str, headers: &HeaderMap, body: &[u8]) -> Result<Event, WebhookError> {
    verify_webhook_with(secret, headers, body, DEFAULT_WEBHOOK_TOLERANCE, SystemTime::now())
}

/// Checks that `webhook-timestamp` is within `tolerance` of `now` and that one of the `v1,` signatures is the
/// HMAC-SHA256, keyed with the decoded `whsec_` secret, of `<webhook-id>.<webhook-timestamp>.<body>`; returns the
/// parsed event. `body` must be the exact bytes received.
pub fn verify_webhook_with(secret: &str, headers: &HeaderMap, body: &[u8], tolerance: Duration, now: SystemTime) -> Result<Event, WebhookError> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).filter(|v| !v.is_empty());
    let (Some(id), Some(timestamp), Some(signatures)) = (header("webhook-id"), header("webhook-timestamp"), header("webhook-signature")) else {
        return Err(WebhookError::MissingHeaders);
    };
    if !timestamp.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WebhookError::TimestampInvalid);
    }
    let sent: u64 = timestamp.parse().map_err(|_| WebhookError::TimestampInvalid)?;
    let now = now.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    if sent < now.saturating_sub(tolerance.as_secs()) {
        return Err(WebhookError::TimestampTooOld);
    }
    if sent > now.saturating_add(tolerance.as_secs()) {
        return Err(WebhookError::TimestampTooNew);
    }
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).map_err(|_| WebhookError::SecretInvalid)?;
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&key).map_err(|_| WebhookError::SecretInvalid)?;
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    let matched = signatures.split(' ').filter_map(|candidate| candidate.strip_prefix("v1,")).any(|signature| {
        STANDARD.decode(signature).map(|bytes| mac.clone().verify_slice(&bytes).is_ok()).unwrap_or(false)
    });
    if !matched {
        return Err(WebhookError::SignatureMismatch);
    }
    serde_json::from_slice(body).map_err(|e| WebhookError::BodyInvalid(e.to_string()))
}
