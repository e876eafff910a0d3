//! The retry rules a live server cannot be made to show on demand (503, 409 in progress, refused connections), the
//! cursors a list sends, and the answer a replayed create gets (no secret), against a scripted HTTP server on a thread.

use plinth::models::{
    create_account_request::Type, CreateAccountNumberRequest, CreateAccountRequest, CreateApiKeyRequest, RotateWebhookEndpointSecretRequest,
};
use plinth::{Client, Error, ListParams, RequestOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const ACCOUNT: &str = r#"{"id":"acct_1","object":"fintech.account","type":"business","country":"US","status":"active","status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"nickname":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:00Z"}"#;

fn problem(status: u16, code: &str, retry_after: Option<u32>) -> String {
    let body = format!(r#"{{"type":"/docs/errors#{code}","title":"t","status":{status},"detail":"d","code":"{code}","request_id":"req_X"}}"#);
    let extra = retry_after.map(|s| format!("Retry-After: {s}\r\n")).unwrap_or_default();
    format!("HTTP/1.1 {status} X\r\nContent-Type: application/problem+json\r\nRequest-Id: req_X\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
}

fn ok(body: &str) -> String {
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nRequest-Id: req_OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
}

/// Serves `answers` in order (the last one repeats); returns the base URL and the Idempotency-Key of each request.
fn serve(answers: Vec<String>) -> (String, Arc<Mutex<Vec<Option<String>>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let keys = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&keys);
    thread::spawn(move || {
        for (i, stream) in listener.incoming().enumerate() {
            let mut stream = stream.unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let (mut key, mut length) = (None, 0usize);
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if lower.starts_with("idempotency-key:") {
                    key = Some(line[16..].trim().to_owned());
                } else if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            seen.lock().unwrap().push(key);
            stream.write_all(answers[i.min(answers.len() - 1)].as_bytes()).unwrap();
        }
    });
    (url, keys)
}

fn client(url: &str) -> Client {
    Client::builder().api_key("sk_test_x").base_url(url).backoff(Duration::from_millis(1), Duration::from_millis(5)).build()
}

fn business() -> CreateAccountRequest {
    CreateAccountRequest::new(Type::Business, "US".into())
}

#[tokio::test]
async fn post_retries_keep_one_idempotency_key() {
    let (url, keys) = serve(vec![problem(503, "service_unavailable", None), problem(409, "idempotency_request_in_progress", None), ok(ACCOUNT)]);
    let account = client(&url).accounts().create(business(), RequestOptions::default()).await.unwrap();
    assert_eq!((account.id.as_str(), account.retries, account.request_id.as_deref()), ("acct_1", 2, Some("req_OK")));
    let keys = keys.lock().unwrap();
    assert_eq!(keys.len(), 3);
    assert!(keys[0].is_some() && keys.iter().all(|k| k == &keys[0]), "one key for every attempt: {keys:?}");
}

#[tokio::test]
async fn retry_after_is_honoured() {
    let (url, keys) = serve(vec![problem(429, "rate_limited", Some(1)), ok(ACCOUNT)]);
    let start = Instant::now();
    let account = client(&url).accounts().retrieve("acct_1").await.unwrap();
    assert!(start.elapsed() >= Duration::from_secs(1), "waited {:?}; Retry-After said 1 s", start.elapsed());
    assert_eq!(account.retries, 1);
    assert_eq!(keys.lock().unwrap()[0], None, "a GET carries no Idempotency-Key");
}

#[tokio::test]
async fn other_conflicts_are_not_retried_and_the_callers_key_wins() {
    let (url, keys) = serve(vec![problem(409, "account_frozen", None)]);
    let err = client(&url).accounts().create(business(), RequestOptions::idempotency_key("mine")).await.unwrap_err();
    let e = err.api().expect("a problem answer");
    assert_eq!((e.status, e.code.as_str(), e.request_id.as_deref()), (409, "account_frozen", Some("req_X")));
    assert_eq!(*keys.lock().unwrap(), vec![Some("mine".to_owned())]);
}

#[tokio::test]
async fn retries_give_up_with_the_last_error() {
    let (url, keys) = serve(vec![problem(500, "internal_error", None)]);
    let err = Client::builder().base_url(&url).max_retries(2).backoff(Duration::from_millis(1), Duration::from_millis(2)).build().accounts().retrieve("acct_1").await.unwrap_err();
    assert!(matches!(&err, Error::Api(e) if e.status == 500 && e.retries == 2), "{err}");
    assert_eq!(keys.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn refused_connections_are_retried_then_reported_as_transport_errors() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port(); // closed at once
    let err = client(&format!("http://127.0.0.1:{port}")).accounts().retrieve("acct_1").await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err}");
}

/// A 200 that is an idempotent replay: what the server answers to the same Idempotency-Key again.
fn replayed(body: &str) -> String {
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nIdempotent-Replayed: true\r\nRequest-Id: req_R\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
}

#[tokio::test]
async fn a_secret_is_a_plain_string_and_a_replay_says_it_has_none() {
    let key = |k: &str| format!(r#"{{"id":"key_1","object":"api_key","mode":"sandbox","hint":"sk_test_…abcd","name":null,"livemode":false,"created_at":"2026-11-22T10:00Z","revoked_at":null,"last_used_at":null,"permissions":null,"key":{k}}}"#);
    let endpoint = r#"{"id":"we_1","object":"webhook_endpoint","url":"https://example.com/h","enabled_events":["*"],"description":null,"status":"enabled","disabled_reason":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:00Z","secret":null}"#;
    let (url, _) = serve(vec![ok(&key(r#""sk_test_abcd""#)), replayed(&key("null")), replayed(endpoint)]);
    let c = client(&url);

    let fresh = c.api_keys().create(CreateApiKeyRequest::new(), RequestOptions::default()).await.unwrap();
    assert_eq!((fresh.key.as_str(), fresh.id.as_str(), fresh.replayed), ("sk_test_abcd", "key_1", false));
    assert!(!format!("{fresh:?}").contains("sk_test_abcd"), "Debug shows the secret: {fresh:?}");

    match c.api_keys().create(CreateApiKeyRequest::new(), RequestOptions::idempotency_key("k")).await {
        Err(Error::SecretWithheld(w)) => {
            assert_eq!((w.object.as_str(), w.id.as_str(), w.request_id.as_deref()), ("api_key", "key_1", Some("req_R")));
            assert!(w.to_string().contains("revoke"), "{w}");
        }
        other => panic!("expected Error::SecretWithheld, got {other:?}"),
    }
    match c.webhook_endpoints().rotate_secret("we_1", RotateWebhookEndpointSecretRequest::new(), RequestOptions::default()).await {
        Err(Error::SecretWithheld(w)) => assert!(w.id == "we_1" && w.to_string().contains("rotate"), "{w}"),
        other => panic!("expected Error::SecretWithheld, got {other:?}"),
    }
}

/// docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only.
#[tokio::test]
async fn an_account_number_is_a_plain_string_once_and_a_replay_says_it_has_none() {
    let number = |n: &str| format!(r#"{{"id":"an_1","object":"fintech.account_number","account_id":"acct_1","routing_number":"110000000","account_number_last4":"9012","name":null,"status":"active","inbound_debits":"allowed","livemode":false,"created_at":"2026-11-28T10:00Z","account_number":{n}}}"#);
    let (url, _) = serve(vec![ok(&number(r#""123456789012""#)), replayed(&number("null")), ok(&number("null"))]);
    let c = client(&url);
    let request = || CreateAccountNumberRequest::new("acct_1".into());

    let fresh = c.account_numbers().create(request(), RequestOptions::default()).await.unwrap();
    assert_eq!((fresh.account_number.as_str(), fresh.id.as_str(), fresh.account_number_last4.as_str()), ("123456789012", "an_1", "9012"));
    assert!(!format!("{fresh:?}").contains("123456789012"), "Debug shows the number: {fresh:?}");
    match c.account_numbers().create(request(), RequestOptions::idempotency_key("k")).await {
        Err(Error::SecretWithheld(w)) => {
            assert_eq!((w.object.as_str(), w.id.as_str()), ("account_number", "an_1"));
            assert!(w.to_string().contains("disable the account number"), "{w}");
        }
        other => panic!("expected Error::SecretWithheld, got {other:?}"),
    }
    assert_eq!(c.account_numbers().retrieve("an_1").await.unwrap().account_number, None);
}

/// Serves `answers` in order to GET requests; returns the base URL and the request target (path and query) of each.
fn serve_targets(answers: Vec<String>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let targets = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&targets);
    thread::spawn(move || {
        for (i, stream) in listener.incoming().enumerate() {
            let mut stream = stream.unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line.trim_end().is_empty() {
                    break;
                }
            }
            seen.lock().unwrap().push(request_line.split(' ').nth(1).unwrap_or_default().to_owned());
            stream.write_all(answers[i.min(answers.len() - 1)].as_bytes()).unwrap();
        }
    });
    (url, targets)
}

#[tokio::test]
async fn list_follows_starting_after_or_walks_newer_from_ending_before_with_the_filter_on_every_page() {
    let page1 = ok(&format!(r#"{{"object":"list","data":[{},{}],"has_more":true}}"#, ACCOUNT.replace("acct_1", "acct_3"), ACCOUNT.replace("acct_1", "acct_2")));
    let page2 = ok(&format!(r#"{{"object":"list","data":[{ACCOUNT}],"has_more":false}}"#));
    let (url, targets) = serve_targets(vec![page1.clone(), page2.clone(), page1, page2]);
    let c = client(&url);
    let ids: Vec<String> = c.accounts().list(plinth::AccountFilter::default().status("frozen"), ListParams::limit(2)).collect().await.unwrap().into_iter().map(|a| a.id).collect();
    assert_eq!(ids, ["acct_3", "acct_2", "acct_1"]);
    let newer = ListParams { limit: Some(2), ending_before: Some("acct_0".into()), ..Default::default() };
    assert_eq!(c.accounts().list(Default::default(), newer).collect().await.unwrap().len(), 3);
    let t = targets.lock().unwrap().clone();
    assert_eq!(t.len(), 4, "{t:?}");
    assert!(t[0].contains("status=frozen") && t[0].contains("limit=2") && !t[0].contains("starting_after"), "first page {}", t[0]);
    assert!(t[1].contains("status=frozen") && t[1].contains("starting_after=acct_2"), "second page {}", t[1]);
    assert!(t[2].contains("ending_before=acct_0") && t[3].contains("ending_before=acct_3") && !t[3].contains("starting_after"), "walking newer {:?}", &t[2..]);
}
