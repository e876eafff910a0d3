//! The client conformance scenario (clients/README.md, steps 1–27), against live servers, through the public API of
//! the Rust client; steps 13–19 are in later.rs, 20–21 in holds.rs, 22 in request_log.rs, 23 in reversals.rs, 24 in read_only.rs, 25 in stream.rs, 26 in payments.rs, 27 in audit.rs. Env: PLINTH_URL, PLINTH_PROXY_URL, PLINTH_LIMITED_URL,
//! PLINTH_RECEIVER_URL. One line per step; exit 1 on the first failure.

use plinth::models::{create_account_request::Type, CreateAccountRequest, CreateAccountRequestKyb, CreateTransferRequest, CreateWebhookEndpointRequest, SimulateDepositRequest};
use plinth::{ApiError, Client, Error, ListParams, RequestOptions};
use std::process::exit;

fn fail(message: String) -> ! {
    println!("FAIL: {message}");
    exit(1)
}

macro_rules! check {
    ($cond:expr, $($arg:tt)*) => { if !$cond { fail(format!($($arg)*)) } };
}

mod audit;
mod holds;
mod later;
mod payments;
mod read_only;
mod request_log;
mod reversals;
mod stream;

fn ok<T>(result: Result<T, Error>) -> T {
    result.unwrap_or_else(|e| fail(format!("unexpected error: {e}")))
}

/// Asserts the layer's one typed error with this status and code.
fn expect_error<T: std::fmt::Debug>(result: Result<T, Error>, status: u16, code: &str) -> ApiError {
    match result {
        Ok(v) => fail(format!("expected {status} {code}, got success {v:?}")),
        Err(Error::Api(e)) => {
            check!(e.status == status && e.code == code, "expected {status} {code}, got {} {} ({:?})", e.status, e.code, e.detail);
            check!(e.request_id.as_deref().unwrap_or("").starts_with("req_"), "error request_id {:?}", e.request_id);
            e
        }
        Err(e) => fail(format!("expected an API error {status} {code}, got {e}")),
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| fail(format!("{name} is not set")))
}

fn business(country: &str) -> CreateAccountRequest {
    CreateAccountRequest::new(Type::Business, country.to_owned())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (base, proxy_url, limited_url) = (env("PLINTH_URL"), env("PLINTH_PROXY_URL"), env("PLINTH_LIMITED_URL"));
    let mut created: Vec<String> = Vec::new(); // oldest first

    // 1. Sign up for a sandbox key.
    let signup = ok(Client::sign_up(&base, None).await);
    let key = signup.api_key.key.clone();
    check!(key.starts_with("sk_test_"), "signup key {key}");
    let client = Client::builder().api_key(&key).base_url(&base).build();
    println!("ok 1 sign up: sandbox key issued");

    // 2. Create an account; the Request-Id of the success is exposed.
    let acct = ok(client.accounts().create(business("US"), RequestOptions::default()).await);
    check!(acct.id.starts_with("acct_"), "id {}", acct.id);
    check!(acct.status == "active", "status {}", acct.status);
    check!(acct.available_balance.amount == 0 && acct.available_balance.currency == "USD", "balance {:?}", acct.available_balance);
    let request_id = acct.request_id.clone().unwrap_or_default();
    check!(request_id.starts_with("req_"), "Request-Id {request_id:?}");
    let first = acct.id.clone();
    created.push(first.clone());
    println!("ok 2 create account {} (Request-Id {request_id})", acct.id);

    // 3. Create with kyb.
    let mut with_kyb = business("US");
    with_kyb.kyb = Some(Some(CreateAccountRequestKyb::new("12-3456789".into(), "Acme Corp".into())));
    let acct = ok(client.accounts().create(with_kyb, RequestOptions::default()).await);
    check!(acct.kyb.as_ref().map(|k| k.ein_last4.as_str()) == Some("6789"), "kyb {:?}", acct.kyb);
    created.push(acct.id.clone());
    println!("ok 3 create account with kyb: ein_last4 6789");

    // 4. Retrieve.
    let got = ok(client.accounts().retrieve(&first).await);
    check!(got.id == first, "retrieved {}", got.id);
    println!("ok 4 retrieve account");
    let second = created[1].clone();

    // 4a. A sandbox deposit: the credit transaction.
    let credit = ok(client.sandbox().deposit(&first, SimulateDepositRequest::new(10000), RequestOptions::default()).await);
    check!(credit.id.starts_with("txn_"), "transaction id {}", credit.id);
    check!(credit.amount == 10000 && credit.balance_after == 10000, "deposit amount {} balance_after {}", credit.amount, credit.balance_after);
    println!("ok 4a deposit (sandbox): 10000, balance_after 10000");

    // 4b. A transfer with the client's own Idempotency-Key: posted.
    let transfer = ok(client.transfers().create(CreateTransferRequest::new(first.clone(), second.clone(), 2500, "USD".into()), RequestOptions::default()).await);
    check!(transfer.id.starts_with("tr_"), "transfer id {}", transfer.id);
    check!(transfer.status == "posted" && transfer.amount == 2500, "transfer status {} amount {}", transfer.status, transfer.amount);
    println!("ok 4b transfer: 2500 USD, posted");

    // 4c. The first account's transactions, newest first, through auto-pagination.
    let mut moves = Vec::new();
    let mut pages = client.transactions().list(&first, Default::default(), ListParams::limit(1));
    while let Some(item) = pages.next().await {
        let t = ok(item);
        moves.push((t.amount, t.balance_after));
    }
    check!(moves == vec![(-2500, 7500), (10000, 10000)], "transactions (amount, balance_after) {moves:?}");
    println!("ok 4c iterate the transactions: balance_after 7500 then 10000");

    // 4d. More than the balance: 409 insufficient_funds naming the side at fault.
    let e = expect_error(client.transfers().create(CreateTransferRequest::new(first.clone(), second.clone(), 999999, "USD".into()), RequestOptions::default()).await, 409, "insufficient_funds");
    check!(e.param.as_deref() == Some("from_account_id"), "param {:?}", e.param);
    println!("ok 4d insufficient funds: 409, param from_account_id");

    // 5. The same Idempotency-Key and body twice: the same account.
    let idem = format!("rust-conformance-{}", uuid_like());
    let a1 = ok(client.accounts().create(business("US"), RequestOptions::idempotency_key(&idem)).await);
    let a2 = ok(client.accounts().create(business("US"), RequestOptions::idempotency_key(&idem)).await);
    check!(a1.id == a2.id, "replay gave {} then {}", a1.id, a2.id);
    check!(a2.replayed, "second response not marked Idempotent-Replayed");
    created.push(a1.id.clone());
    println!("ok 5 idempotent replay: same id");

    // 6. The same key with another body: 422 idempotency_key_reused.
    expect_error(client.accounts().create(business("CA"), RequestOptions::idempotency_key(&idem)).await, 422, "idempotency_key_reused");
    println!("ok 6 key reused with another body: 422 idempotency_key_reused");

    // 7. A bad key: 401 api_key_invalid.
    let bad = Client::builder().api_key(format!("sk_test_{}", "A".repeat(38))).base_url(&base).build();
    expect_error(bad.accounts().list_page(Default::default(), ListParams::limit(1)).await, 401, "api_key_invalid");
    println!("ok 7 bad key: 401 api_key_invalid");

    // 8. An unknown field, through the raw request mechanism: 400 parameter_unknown naming it.
    let body = serde_json::json!({"type": "business", "country": "US", "colour": "red"});
    let e = expect_error(client.raw(reqwest::Method::POST, "/v1/fintech/accounts", Some(body), RequestOptions::default()).await, 400, "parameter_unknown");
    check!(e.param.as_deref() == Some("colour"), "param {:?}", e.param);
    check!(!e.errors.is_empty(), "errors is empty");
    println!("ok 8 unknown field: 400 parameter_unknown, param colour");

    // 9. Auto-pagination with limit=1 yields exactly what was created, newest first, once each.
    let mut listed = Vec::new();
    let mut pages = client.accounts().list(Default::default(), ListParams::limit(1));
    while let Some(item) = pages.next().await {
        listed.push(ok(item).id);
    }
    let want: Vec<String> = created.iter().rev().cloned().collect();
    check!(listed == want, "listed {listed:?}, want {want:?}");
    println!("ok 9 list with limit=1: {} accounts, newest first, no duplicates", listed.len());

    // 10. Rate limited (2/s): six calls back to back all succeed because 429s are retried after Retry-After.
    let limited_signup = ok(Client::sign_up(&limited_url, None).await);
    let limited = Client::builder().api_key(&limited_signup.api_key.key).base_url(&limited_url).build();
    let mut retries = 0;
    for i in 0..6 {
        match limited.accounts().list_page(Default::default(), ListParams::limit(1)).await {
            Ok(resp) => retries += resp.retries,
            Err(e) => fail(format!("limited call {}: {e}", i + 1)),
        }
    }
    check!(retries >= 1, "no 429 was retried");
    println!("ok 10 rate limit: 6 calls succeeded after {retries} retries honouring Retry-After");

    // 11. Through the rewriting proxy: unknown fields, an unknown status and an unknown error code still decode.
    let proxied = Client::builder().api_key(&key).base_url(&proxy_url).build();
    let got = ok(proxied.accounts().retrieve(&first).await);
    check!(got.id == first && got.status == "dormant", "proxied account {} status {}", got.id, got.status);
    let page = ok(proxied.accounts().list_page(Default::default(), ListParams::limit(100)).await);
    check!(page.data.len() == created.len(), "proxied list has {} accounts", page.data.len());
    expect_error(proxied.accounts().retrieve(&format!("acct_{}", "0".repeat(26))).await, 404, "future_error_code");
    println!("ok 11 through the rewriting proxy: unknown field, status dormant, error code future_error_code");

    // 12. A webhook delivery to the test's receiver verifies with the endpoint's secret, and fails with one byte of
    // the body changed or with another secret.
    let receiver_url = env("PLINTH_RECEIVER_URL");
    let endpoint = ok(client
        .webhook_endpoints()
        .create(CreateWebhookEndpointRequest::new(format!("{receiver_url}/hook"), vec!["*".into()]), RequestOptions::default())
        .await);
    let secret = endpoint.secret.clone();
    check!(secret.starts_with("whsec_"), "secret {secret}");
    let endpoint_id = endpoint.id.clone();
    let event = ok(client.webhook_endpoints().test(&endpoint_id, RequestOptions::default()).await);
    let event_id = event.id.clone();
    check!(event.r#type == "webhook_endpoint.test", "type {}", event.r#type);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut delivery = serde_json::Value::Null;
    while delivery.is_null() && std::time::Instant::now() < deadline {
        let found: Vec<serde_json::Value> = match reqwest::get(format!("{receiver_url}/deliveries?event={event_id}")).await {
            Ok(answer) => answer.json().await.unwrap_or_else(|e| fail(format!("receiver answer: {e}"))),
            Err(e) => fail(format!("receiver: {e}")),
        };
        match found.into_iter().next() {
            Some(d) => delivery = d,
            None => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
    check!(!delivery.is_null(), "no delivery of {event_id} within 10 s");
    let mut headers = http::HeaderMap::new();
    for (name, value) in delivery["headers"].as_object().cloned().unwrap_or_default() {
        let name = http::HeaderName::from_bytes(name.as_bytes()).unwrap_or_else(|e| fail(format!("header {name}: {e}")));
        headers.insert(name, http::HeaderValue::from_str(value.as_str().unwrap_or_default()).unwrap_or_else(|e| fail(format!("header value: {e}"))));
    }
    let body = delivery["body"].as_str().unwrap_or_default().as_bytes().to_vec();
    let verified = plinth::verify_webhook(&secret, &headers, &body).unwrap_or_else(|e| fail(format!("verify: {e}")));
    check!(verified.id == event_id && verified.r#type == "webhook_endpoint.test", "verified {} {}", verified.id, verified.r#type);
    let mut changed = body.clone();
    let i = String::from_utf8_lossy(&body).find(&event_id).unwrap_or_else(|| fail("the id is not in the body".into())) + 4; // a character of the id
    changed[i] = if changed[i] == b'0' { b'1' } else { b'0' };
    let other = format!("whsec_{}", { use base64::Engine; base64::engine::general_purpose::STANDARD.encode([7u8; 32]) });
    for (wrong_secret, wrong_body) in [(&secret, &changed), (&other, &body)] {
        let result = plinth::verify_webhook(wrong_secret, &headers, wrong_body);
        check!(result == Err(plinth::WebhookError::SignatureMismatch), "a changed body or another secret: {:?}", result.map(|e| e.id));
    }
    println!("ok 12 a webhook delivery verifies with its secret, not with a changed body or another secret");

    later::run(&client, &created, &transfer.id, later::Endpoint { id: endpoint_id, secret, test_event_id: event_id }).await;
    holds::run(&client, &created, &receiver_url).await;
    request_log::run(&client, &request_id).await;
    reversals::run(&client).await;
    read_only::run(&client, &base).await;
    stream::run(&client, &key, &proxy_url).await;
    payments::run(&client).await;
    audit::run(&client).await;
    println!("rust: every step passed");
}

fn uuid_like() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{nanos:x}")
}
