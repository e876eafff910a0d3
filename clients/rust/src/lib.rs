//! The Plinth API client for Rust (async, on reqwest and tokio): a method for every operation of the API, grouped by
//! resource (`client.accounts().create(…)`), over the models and functions OpenAPI Generator writes ([`models`],
//! [`apis`]; never edited by hand). The layer adds what a good SDK does: retries with backoff honouring
//! `Retry-After`, one automatic `Idempotency-Key` per POST reused across its attempts, list iteration ([`ListIter`]),
//! one typed error ([`ApiError`]), the `Request-Id` of every response ([`Response::request_id`]), and a default
//! timeout.
//!
//! ```no_run
//! # async fn demo() -> Result<(), plinth::Error> {
//! use plinth::models::{CreateAccountRequest, create_account_request::Type};
//! let signup = plinth::Client::sign_up("http://127.0.0.1:8080", None).await?;
//! let client = plinth::Client::builder().api_key(&signup.api_key.key).base_url("http://127.0.0.1:8080").build();
//! let account = client.accounts().create(CreateAccountRequest::new(Type::Business, "US".into()), Default::default()).await?;
//! println!("{} {} ({})", account.id, account.status, account.request_id.as_deref().unwrap_or(""));
//! # Ok(()) }
//! ```

/// The operations as OpenAPI Generator writes them (`generated/src/apis`), one function per operation taking a
/// `…Params` struct; [`Client::configuration`] runs them through this client's middleware.
#[path = "../generated/src/apis/mod.rs"]
#[allow(unused_imports, clippy::all)]
pub mod apis;
/// The request and response models as OpenAPI Generator writes them (`generated/src/models`).
#[path = "../generated/src/models/mod.rs"]
#[allow(unused_imports, clippy::all)]
pub mod models;

mod client;
mod created;
mod error;
mod filters;
mod fintech;
mod list;
mod operations;
mod platform;
mod stream;
mod transfers;
mod transport;
mod webhook;

pub use apis::configuration::Configuration;
pub use client::{Client, ClientBuilder, RequestOptions};
pub use created::{CreatedAccountNumber, CreatedApiKey, CreatedWebhookEndpoint, SignUp};
pub use error::{ApiError, Error, ErrorItem, Response, SecretWithheld};
pub use filters::{Created, MetadataUpdate};
pub use list::{ListIter, ListParams};
// The resources and their list filters, generated from the API description (operations.rs).
pub use operations::{
    AccountFilter, AccountNumberFilter, AccountNumbers, Accounts, ApiKeys, Audit, EventFilter, Events,
    ExternalAccounts, PaymentFilter, Payments, RequestFilter, Requests, Sandbox, TransactionFilter, Transactions,
    TransferFilter, Transfers, WebhookDeliveries, WebhookEndpoints,
};
pub use stream::{EventStream, Gap, StreamParams};
pub use webhook::{verify_webhook, verify_webhook_with, WebhookError, DEFAULT_WEBHOOK_TOLERANCE};

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";
pub const DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
pub const DEFAULT_MAX_RETRIES: u32 = 3;
