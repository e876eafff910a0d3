//! The answers that carry a secret, shown once: a new API key's `key`, a new (or rotated) webhook endpoint's
//! `secret`, a new account number's `account_number`. Here they are plain `String`s; the one answer without them,
//! an idempotent replay, is [`Error::SecretWithheld`] instead of an `Option` every caller would have to unwrap.

use std::fmt;
use std::ops::Deref;

use crate::error::{Error, Response, SecretWithheld};
use crate::models;

/// A new API key and its secret: what `api_keys().create` and [`crate::Client::sign_up`] answer. Derefs to the
/// key without its secret ([`models::ApiKey`]: `id`, `name`, `hint`, `permissions` (`None` for a full key), …).
#[derive(Clone)]
pub struct CreatedApiKey {
    /// The secret, `sk_test_…` or `sk_live_…` (`rk_…` for a restricted key): keep it, it is shown only here.
    pub key: String,
    pub api_key: models::ApiKey,
}

impl CreatedApiKey {
    pub(crate) fn from_answer(k: models::NewApiKey, meta: &Response<()>) -> Result<CreatedApiKey, Error> {
        let Some(key) = k.key else {
            return Err(withheld("api_key", k.id, meta));
        };
        let api_key = models::ApiKey {
            id: k.id,
            object: k.object,
            mode: k.mode,
            hint: k.hint,
            name: k.name,
            livemode: k.livemode,
            created_at: k.created_at,
            revoked_at: k.revoked_at,
            last_used_at: k.last_used_at,
            permissions: k.permissions.map(|p| models::ApiKeyPermissionsAnyOf0 {
                accounts: p.accounts,
                transfers: p.transfers,
                transactions: p.transactions,
                sandbox: p.sandbox,
                events: p.events,
                webhook_endpoints: p.webhook_endpoints,
                api_keys: p.api_keys,
                requests: p.requests,
                payments: p.payments,
            }),
        };
        Ok(CreatedApiKey { key, api_key })
    }
}

impl Deref for CreatedApiKey {
    type Target = models::ApiKey;
    fn deref(&self) -> &models::ApiKey {
        &self.api_key
    }
}

/// Without the secret: a key printed in a log must not leak it.
impl fmt::Debug for CreatedApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CreatedApiKey").field("key", &"<secret>").field("api_key", &self.api_key).finish()
    }
}

/// A webhook endpoint and its signing secret: what `webhook_endpoints().create` and `rotate_secret` answer. Derefs
/// to the endpoint ([`models::WebhookEndpoint`]).
#[derive(Clone)]
pub struct CreatedWebhookEndpoint {
    /// `whsec_…`: what [`crate::verify_webhook`] checks deliveries with; shown only here.
    pub secret: String,
    pub endpoint: models::WebhookEndpoint,
}

impl CreatedWebhookEndpoint {
    pub(crate) fn from_answer(e: models::WebhookEndpointWithSecret, meta: &Response<()>) -> Result<CreatedWebhookEndpoint, Error> {
        let Some(secret) = e.secret else {
            return Err(withheld("webhook_endpoint", e.id, meta));
        };
        let endpoint = models::WebhookEndpoint {
            id: e.id,
            object: e.object,
            url: e.url,
            enabled_events: e.enabled_events,
            description: e.description,
            status: e.status,
            disabled_reason: e.disabled_reason,
            metadata: e.metadata,
            livemode: e.livemode,
            created_at: e.created_at,
        };
        Ok(CreatedWebhookEndpoint { secret, endpoint })
    }
}

impl Deref for CreatedWebhookEndpoint {
    type Target = models::WebhookEndpoint;
    fn deref(&self) -> &models::WebhookEndpoint {
        &self.endpoint
    }
}

impl fmt::Debug for CreatedWebhookEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CreatedWebhookEndpoint").field("secret", &"<secret>").field("endpoint", &self.endpoint).finish()
    }
}

/// A new account number and its 12 digits: what `account_numbers().create` answers. Derefs to the account number
/// ([`models::AccountNumber`]: `id`, `routing_number`, `account_number_last4`, …), whose own `account_number` is
/// `None` in every later read.
#[derive(Clone)]
pub struct CreatedAccountNumber {
    /// The 12 digits to give payers, with `routing_number`; shown only here.
    pub account_number: String,
    pub number: models::AccountNumber,
}

impl CreatedAccountNumber {
    pub(crate) fn from_answer(n: models::AccountNumber, meta: &Response<()>) -> Result<CreatedAccountNumber, Error> {
        let Some(account_number) = n.account_number.clone() else {
            return Err(withheld("account_number", n.id, meta));
        };
        Ok(CreatedAccountNumber { account_number, number: n })
    }
}

impl Deref for CreatedAccountNumber {
    type Target = models::AccountNumber;
    fn deref(&self) -> &models::AccountNumber {
        &self.number
    }
}

/// Without the number: an account number printed in a log must not leak it.
impl fmt::Debug for CreatedAccountNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut number = self.number.clone();
        number.account_number = None;
        f.debug_struct("CreatedAccountNumber").field("account_number", &"<secret>").field("number", &number).finish()
    }
}

/// A new sandbox organisation and its first key, usable at once: what [`crate::Client::sign_up`] answers.
#[derive(Debug, Clone)]
pub struct SignUp {
    pub org_id: String,
    /// Its secret is `api_key.key` (a sign-up is never replayed, so it is always there).
    pub api_key: CreatedApiKey,
}

fn withheld(object: &str, id: String, meta: &Response<()>) -> Error {
    Error::SecretWithheld(SecretWithheld { object: object.to_owned(), id, request_id: meta.request_id.clone() })
}
