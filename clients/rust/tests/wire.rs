//! What the round-two methods put on the wire, against a scripted HTTP server on a thread: the filters as OpenAPI's
//! deepObject (`created[gte]=…`, `metadata[key]=value`) on every page of a list, and the bodies of the metadata
//! updates, a post and a void; the request log's filters, sent the same way; reversals, balances, statements and a
//! nickname update; a key create with permissions, and a restricted key as decoded.

use plinth::models::UpdateWebhookEndpointRequest;
use plinth::{AccountFilter, Client, Created, EventFilter, ListParams, MetadataUpdate, RequestFilter, RequestOptions, TransactionFilter, TransferFilter};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::thread;

const ACCOUNT: &str = r#"{"id":"acct_1","object":"fintech.account","type":"business","country":"US","status":"active","status_details":null,"closed_at":null,"available_balance":{"amount":0,"currency":"USD"},"current_balance":{"amount":0,"currency":"USD"},"kyb":null,"nickname":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:00Z"}"#;
const TRANSFER: &str = r#"{"id":"tr_1","object":"fintech.transfer","from_account_id":"acct_1","to_account_id":"acct_2","amount":4000,"currency":"USD","description":null,"status":"pending","pending":true,"posted_amount":null,"amount_reversed":0,"reversed":false,"expires_at":"2026-11-22T11:53Z","resolved_at":null,"metadata":{"order":"A-1"},"livemode":false,"created_at":"2026-11-22T10:53Z"}"#;
const ENDPOINT: &str = r#"{"id":"we_1","object":"webhook_endpoint","url":"https://example.com/h","enabled_events":["*"],"description":"d","status":"enabled","disabled_reason":null,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}"#;
const EMPTY: &str = r#"{"object":"list","data":[],"has_more":false}"#;

fn ok(body: &str) -> String {
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nRequest-Id: req_OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
}

/// One request as received: `METHOD target body`, and whether it carried an Idempotency-Key.
type Seen = Arc<Mutex<Vec<(String, bool)>>>;

/// Serves `bodies` in order as 200 answers (the last one repeats); returns the base URL and what each request was.
fn serve(bodies: Vec<&str>) -> (String, Seen) {
    let answers: Vec<String> = bodies.into_iter().map(ok).collect();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen: Seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    thread::spawn(move || {
        for (i, stream) in listener.incoming().enumerate() {
            let mut stream = stream.unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let (mut length, mut keyed) = (0usize, false);
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let lower = line.trim_end().to_ascii_lowercase();
                if lower.is_empty() {
                    break;
                }
                keyed |= lower.starts_with("idempotency-key:");
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let mut parts = request_line.split(' ');
            let (method, target) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
            record.lock().unwrap().push((format!("{method} {target} {}", String::from_utf8_lossy(&body)), keyed));
            stream.write_all(answers[i.min(answers.len() - 1)].as_bytes()).unwrap();
        }
    });
    (url, seen)
}

fn client(url: &str) -> Client {
    Client::builder().api_key("sk_test_x").base_url(url).build()
}

#[tokio::test]
async fn filters_go_out_as_deep_objects_on_every_page() {
    let page1 = format!(r#"{{"object":"list","data":[{}],"has_more":true}}"#, TRANSFER.replace("tr_1", "tr_3"));
    let page2 = format!(r#"{{"object":"list","data":[{}],"has_more":false}}"#, TRANSFER.replace("tr_1", "tr_2"));
    let (url, seen) = serve(vec![&page1, &page2, EMPTY]);
    let c = client(&url);
    let filter = TransferFilter::default()
        .account_id("acct_1")
        .status("pending")
        .created(Created::default().gte("2026-11-24T00:00Z").lt("2026-11-25T00:00:00Z"))
        .metadata("order id", "A-1/ü");
    assert_eq!(c.transfers().list(filter, ListParams::limit(1)).collect().await.unwrap().len(), 2);
    let events = EventFilter::default().r#type("fintech.transfer.posted").created(Created::default().gt("2026-11-24T09:30:00+01:00"));
    c.events().list_page(events, ListParams::default()).await.unwrap();
    let since = TransactionFilter::default().created(Created::default().lte("2026-11-24T00:00Z"));
    c.transactions().list_page("acct_1", since, ListParams::default()).await.unwrap();
    c.accounts().list_page(AccountFilter::default().status("active").metadata("customer", "c-42"), ListParams::default()).await.unwrap();

    let sent: Vec<String> = seen.lock().unwrap().iter().map(|(s, _)| s.trim_end().to_owned()).collect();
    let transfers = "GET /v1/fintech/transfers?limit=1&account_id=acct_1&status=pending&created[gte]=2026-11-24T00%3A00Z\
        &created[lt]=2026-11-25T00%3A00%3A00Z&metadata[order%20id]=A-1%2F%C3%BC";
    let second = transfers.replace("limit=1&", "limit=1&starting_after=tr_3&");
    let expected = [
        transfers.to_owned(),
        second,
        "GET /v1/events?type=fintech.transfer.posted&created[gt]=2026-11-24T09%3A30%3A00%2B01%3A00".to_owned(),
        "GET /v1/fintech/accounts/acct_1/transactions?created[lte]=2026-11-24T00%3A00Z".to_owned(),
        "GET /v1/fintech/accounts?status=active&metadata[customer]=c-42".to_owned(),
    ];
    assert_eq!(sent, expected);
}

#[tokio::test]
async fn metadata_updates_send_changes_or_the_empty_string_and_a_post_its_amount_or_nothing() {
    let (url, seen) = serve(vec![ACCOUNT, ACCOUNT, TRANSFER, TRANSFER, ENDPOINT, ENDPOINT, TRANSFER, TRANSFER, TRANSFER, TRANSFER]);
    let c = client(&url);
    let none = RequestOptions::default;
    c.accounts().update("acct_1", Some(MetadataUpdate::changes([("customer", "c-42"), ("old", "")])), None, none()).await.unwrap();
    c.accounts().update("acct_1", Some(MetadataUpdate::ClearAll), None, none()).await.unwrap();
    let t = c.transfers().update("tr_1", MetadataUpdate::changes([("order", "")]), none()).await.unwrap();
    assert_eq!(t.metadata.get("order").map(String::as_str), Some("A-1"), "the answer is decoded");
    c.transfers().update("tr_1", MetadataUpdate::ClearAll, none()).await.unwrap();
    let mut described = UpdateWebhookEndpointRequest::new();
    described.description = Some(Some("d".into()));
    c.webhook_endpoints().update("we_1", described, Some(MetadataUpdate::changes([("team", "")])), none()).await.unwrap();
    c.webhook_endpoints().update("we_1", UpdateWebhookEndpointRequest::new(), Some(MetadataUpdate::ClearAll), none()).await.unwrap();
    c.transfers().post("tr_1", None, none()).await.unwrap();
    c.transfers().post("tr_1", Some(2500), none()).await.unwrap();
    c.transfers().void("tr_1", none()).await.unwrap();
    c.sandbox().expire_transfer("tr_1", none()).await.unwrap();

    let seen = seen.lock().unwrap().clone();
    let sent: Vec<&str> = seen.iter().map(|(s, _)| s.trim_end()).collect();
    let expected = [
        r#"POST /v1/fintech/accounts/acct_1 {"metadata":{"customer":"c-42","old":""}}"#,
        r#"POST /v1/fintech/accounts/acct_1 {"metadata":""}"#,
        r#"POST /v1/fintech/transfers/tr_1 {"metadata":{"order":""}}"#,
        r#"POST /v1/fintech/transfers/tr_1 {"metadata":""}"#,
        r#"POST /v1/webhook_endpoints/we_1 {"description":"d","metadata":{"team":""}}"#,
        r#"POST /v1/webhook_endpoints/we_1 {"metadata":""}"#,
        "POST /v1/fintech/transfers/tr_1/post {}",
        r#"POST /v1/fintech/transfers/tr_1/post {"amount":2500}"#,
        "POST /v1/fintech/transfers/tr_1/void",
        "POST /v1/sandbox/fintech/transfers/tr_1/expire",
    ];
    assert_eq!(sent, expected);
    assert!(seen.iter().all(|(_, keyed)| *keyed), "a POST without an Idempotency-Key");
}

const REQUEST_LOG: &str = r#"{"id":"req_2","object":"request_log","method":"POST","route":"/v1/fintech/accounts","path":"/v1/fintech/accounts","status":409,"error_code":"account_frozen","duration_ms":1.5,"api_key_id":"key_1","api_key_hint":"sk_test_…abcd","idempotency_key":null,"idempotent_replayed":false,"count":null,"source":"api","body":"{\"type\":\"business\"}","body_truncated":false,"response_body":null,"response_truncated":false,"query":null,"bodies_hidden":false,"error_detail":null,"error_param":null,"livemode":false,"created_at":"2026-11-25T09:00:00.000Z"}"#;

#[tokio::test]
async fn the_request_log_sends_its_filters_on_every_page_and_retrieves_by_id() {
    let page1 = format!(r#"{{"object":"list","data":[{REQUEST_LOG}],"has_more":true}}"#);
    let (url, seen) = serve(vec![&page1, EMPTY, REQUEST_LOG]);
    let c = client(&url);
    let filter = RequestFilter::default()
        .status("409")
        .method("POST")
        .created(Created::default().gte("2026-11-25T14:30:00+05:30").lt("2026-11-26T00:00Z"));
    let ids: Vec<String> = c.requests().list(filter, ListParams::limit(1)).collect().await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(ids, ["req_2"]);
    let entry = c.requests().retrieve("req_2").await.unwrap().into_inner();
    assert_eq!((entry.status, entry.body.as_deref()), (409, Some(r#"{"type":"business"}"#)));

    let sent: Vec<String> = seen.lock().unwrap().iter().map(|(s, _)| s.trim_end().to_owned()).collect();
    let first = "GET /v1/requests?limit=1&status=409&method=POST&created[gte]=2026-11-25T14%3A30%3A00%2B05%3A30&created[lt]=2026-11-26T00%3A00Z";
    let expected = [first.to_owned(), first.replace("limit=1&", "limit=1&starting_after=req_2&"), "GET /v1/requests/req_2".to_owned()];
    assert_eq!(sent, expected);
}

const REVERSAL: &str = r#"{"id":"trr_1","object":"fintech.transfer_reversal","transfer_id":"tr_1","amount":1000,"currency":"USD","description":"refund","metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}"#;
const BALANCES: &str = r#"{"object":"fintech.balances","account_id":"acct_1","at":"2026-11-24T09:30Z","current_balance":{"amount":3000,"currency":"USD"},"available_balance":{"amount":3000,"currency":"USD"},"last_transaction_id":null,"livemode":false}"#;
const STATEMENT: &str = r#"{"object":"fintech.statement","account_id":"acct_1","currency":"USD","from":"2026-11-01T00:00Z","to":"2026-11-24T08:30Z","opening_balance":0,"closing_balance":2000,"credits":{"count":1,"amount":3000},"debits":{"count":1,"amount":1000},"livemode":false}"#;

#[tokio::test]
async fn reversals_balances_statements_and_nicknames_go_out_as_the_api_reads_them() {
    let list = format!(r#"{{"object":"list","data":[{REVERSAL}],"has_more":false}}"#);
    let (url, seen) = serve(vec![REVERSAL, REVERSAL, &list, REVERSAL, BALANCES, BALANCES, STATEMENT, ACCOUNT]);
    let c = client(&url);
    let none = RequestOptions::default;
    c.transfers().reverse("tr_1", Default::default(), none()).await.unwrap();
    let part = plinth::models::CreateTransferReversalRequest { amount: Some(1000), description: Some("refund".into()), metadata: None };
    assert_eq!(c.transfers().reverse("tr_1", part, none()).await.unwrap().amount, 1000, "the answer is decoded");
    c.transfers().list_reversals_page("tr_1", ListParams::limit(2)).await.unwrap();
    c.transfers().retrieve_reversal("tr_1", "trr_1").await.unwrap();
    c.accounts().balances("acct_1", None).await.unwrap();
    assert_eq!(c.accounts().balances("acct_1", Some("2026-11-24T09:30:00.250Z")).await.unwrap().current_balance.amount, 3000);
    let s = c.accounts().statement("acct_1", "2026-11-01T00:00Z", "2026-11-24T09:30:00+01:00").await.unwrap();
    assert_eq!((s.closing_balance, s.debits.amount), (2000, 1000));
    c.accounts().update("acct_1", None, Some("Payroll"), none()).await.unwrap();
    c.accounts().update("acct_1", Some(MetadataUpdate::changes([("customer", "c-42")])), Some(""), none()).await.unwrap();

    let seen = seen.lock().unwrap().clone();
    let sent: Vec<&str> = seen.iter().map(|(s, _)| s.trim_end()).collect();
    let expected = [
        "POST /v1/fintech/transfers/tr_1/reversals {}",
        r#"POST /v1/fintech/transfers/tr_1/reversals {"amount":1000,"description":"refund"}"#,
        "GET /v1/fintech/transfers/tr_1/reversals?limit=2",
        "GET /v1/fintech/transfers/tr_1/reversals/trr_1",
        "GET /v1/fintech/accounts/acct_1/balances",
        "GET /v1/fintech/accounts/acct_1/balances?at=2026-11-24T09%3A30%3A00.250Z",
        "GET /v1/fintech/accounts/acct_1/statement?from=2026-11-01T00%3A00Z&to=2026-11-24T09%3A30%3A00%2B01%3A00",
        r#"POST /v1/fintech/accounts/acct_1 {"nickname":"Payroll"}"#,
        r#"POST /v1/fintech/accounts/acct_1 {"metadata":{"customer":"c-42"},"nickname":""}"#,
    ];
    assert_eq!(sent, expected);
    assert!(seen.iter().filter(|(s, _)| s.starts_with("POST")).all(|(_, keyed)| *keyed), "a POST without an Idempotency-Key");
}

const KEY: &str = r#"{"id":"key_1","object":"api_key","mode":"sandbox","hint":"rk_test_…abcd","name":"Reporting","livemode":false,"created_at":"2026-11-22T10:53Z","revoked_at":null,"last_used_at":null,"permissions":{"accounts":"read","transfers":"none","transactions":"read","sandbox":"none","events":"none","webhook_endpoints":"none","api_keys":"none","requests":"none","payments":"none"},"key":"rk_test_abcd"}"#;

#[tokio::test]
async fn a_key_create_sends_its_permissions_and_a_restricted_key_decodes_them() {
    use plinth::models::create_api_key_request_permissions::{Accounts, Transactions};
    use plinth::models::{create_api_key_request::Mode, CreateApiKeyRequest, CreateApiKeyRequestPermissions};
    let full = KEY.split(r#""permissions":{"#).next().unwrap().to_owned() + r#""permissions":null}"#; // a full key, retrieved
    let (url, seen) = serve(vec![KEY, &full]);
    let c = client(&url);
    let permissions = CreateApiKeyRequestPermissions { accounts: Some(Accounts::Read), transactions: Some(Transactions::Read), ..Default::default() };
    let params = CreateApiKeyRequest { mode: Some(Mode::Sandbox), name: Some("Reporting".into()), permissions: Some(permissions) };
    let k = c.api_keys().create(params, RequestOptions::default()).await.unwrap();
    let p = k.permissions.as_ref().expect("a restricted key's permissions");
    assert_eq!((k.key.as_str(), p.accounts.as_str(), p.transfers.as_str()), ("rk_test_abcd", "read", "none"));
    assert_eq!(c.api_keys().retrieve("key_1").await.unwrap().permissions, None, "a full key has none");

    let sent: Vec<String> = seen.lock().unwrap().iter().map(|(s, _)| s.trim_end().to_owned()).collect();
    let created = r#"POST /v1/api_keys {"mode":"sandbox","name":"Reporting","permissions":{"accounts":"read","transactions":"read"}}"#;
    assert_eq!(sent, [created, "GET /v1/api_keys/key_1"]);
}
