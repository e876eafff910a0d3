//! The README's Rust examples, compiled by `cargo test` in conformance.sh (which builds every example) so that an
//! example that no longer compiles fails the client's test. Between the markers: written by scripts/clients/readme.ts
//! from README.md (edit the README, then run `node scripts/clients/readme.ts rust`), each example a function given
//! what it uses but does not define: the client, account ids (`a`, `b`, `id`, `account_id`), a webhook endpoint's id,
//! a posted transfer `t`, the server's `url`, a transfer to attempt, and a delivery's secret, headers and body.
//! Nothing here runs: main only shows the program builds.
#![allow(unused)]
use http::HeaderMap;
use plinth::models::{CreateTransferRequest, Transfer, UpdateWebhookEndpointRequest};
use plinth::{Client, ListParams, RequestOptions};

fn main() {}

// readme-examples:start
pub async fn example1(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    match plinth.accounts().retrieve("acct_missing").await {
        Err(plinth::Error::Api(e)) => println!("{} {} {:?} {:?} {:?}", e.status, e.code, e.param, e.errors, e.request_id), // 404 resource_not_found …
        other => println!("{other:?}"),
    }
    Ok(())
}

pub async fn example2(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    use plinth::{AccountFilter, Created, TransferFilter};
    let mut frozen = plinth.accounts().list(AccountFilter::default().status("frozen"), ListParams::limit(100));
    while let Some(account) = frozen.next().await {
        println!("{}", account?.id);
    }
    let page = plinth.accounts().list_page(Default::default(), ListParams { limit: Some(10), starting_after: Some("acct_…".into()), ..Default::default() }).await?;
    let held = TransferFilter::default().status("pending").created(Created::default().gte("2026-11-24T00:00Z"));
    let pending = plinth.transfers().list(held, ListParams::default()).collect().await?;
    Ok(())
}

pub async fn example3(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    let mut hold = CreateTransferRequest::new(a.clone(), b.clone(), 4000, "USD".into());
    hold.pending = Some(true);
    hold.expires_in_seconds = Some(3600);
    hold.metadata = Some([("order".to_owned(), "A-1".to_owned())].into());
    let hold = plinth.transfers().create(hold, RequestOptions::default()).await?;   // status "pending", expires_at set
    let captured = plinth.transfers().post(&hold.id, Some(2500), RequestOptions::default()).await?; // posted_amount Some(2500)
    let other = CreateTransferRequest { pending: Some(true), ..CreateTransferRequest::new(a.clone(), b.clone(), 1000, "USD".into()) };
    let other = plinth.transfers().create(other, RequestOptions::default()).await?;
    let released = plinth.transfers().void(&other.id, RequestOptions::default()).await?;           // status "voided"
    Ok(())
}

pub async fn example4(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    use plinth::models::CreateTransferReversalRequest;
    let part = CreateTransferReversalRequest { amount: Some(1000), ..Default::default() };
    let r = plinth.transfers().reverse(&t.id, part, RequestOptions::default()).await?;         // "trr_…"
    plinth.transfers().retrieve(&t.id).await?.amount_reversed;                                  // 1000
    let all = plinth.transfers().list_reversals(&t.id, ListParams::default()).collect().await?;
    plinth.transfers().retrieve_reversal(&t.id, &r.id).await?;
    Ok(())
}

pub async fn example5(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    let then = plinth.accounts().balances(&id, Some("2026-11-24T09:30:00Z")).await?;  // then.current_balance.amount
    let s = plinth.accounts().statement(&id, "2026-11-01T00:00Z", "2026-12-01T00:00Z").await?;
    println!("{} + {} - {} = {}", s.opening_balance, s.credits.amount, s.debits.amount, s.closing_balance);
    Ok(())
}

pub async fn example6(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    use plinth::MetadataUpdate;
    let options = RequestOptions::default;
    plinth.accounts().update(&account_id, Some(MetadataUpdate::changes([("customer", "c-42"), ("old_ref", "")])), None, options()).await?; // sets customer, removes old_ref
    plinth.accounts().update(&account_id, None, Some("Payroll"), options()).await?;   // its nickname; Some("") removes it
    plinth.transfers().update(&t.id, MetadataUpdate::ClearAll, options()).await?;     // removes every key
    plinth.webhook_endpoints().update(&endpoint_id, UpdateWebhookEndpointRequest::new(), Some(MetadataUpdate::changes([("team", "payments")])), options()).await?;
    Ok(())
}

pub async fn example7(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    use plinth::models::create_api_key_request_permissions::{Accounts, Transactions};
    use plinth::models::{CreateApiKeyRequest, CreateApiKeyRequestPermissions};

    let read_only = CreateApiKeyRequestPermissions { accounts: Some(Accounts::Read), transactions: Some(Transactions::Read), ..Default::default() };
    let params = CreateApiKeyRequest { name: Some("Reporting".into()), permissions: Some(read_only), ..Default::default() };
    let k = plinth.api_keys().create(params, Default::default()).await?;
    println!("{}", &k.key[..8]);                                // rk_test_
    println!("{:?}", k.permissions.as_ref().unwrap().transfers); // "none"; `permissions` is None for a full key (sk_…)
    let reader = plinth::Client::builder().api_key(&k.key).base_url(url).build();
    reader.accounts().balances(&account_id, None).await?; // allowed: accounts: read
    reader.transfers().create(transfer, Default::default()).await; // Err(Error::Api(e)): e.status 403, e.code "permission_denied"
    Ok(())
}

pub async fn example8(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    let event = plinth::verify_webhook(&secret, &headers, &body)?; // an http::HeaderMap; verify_webhook_with for a tolerance
    Ok(())
}

pub async fn example9(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    // From the oldest account still kept, then live; dropping the stream closes the connection.
    let mut events = plinth.events().stream(plinth::StreamParams { r#type: Some("fintech.account.created".into()), after: Some(0) });
    while let Some(event) = events.next().await {
        let event = event?; // a refusal: 401 (a revoked key) or 400
        let id = event.data.object.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_owned();
        println!("{} {} {id}", event.sequence, event.r#type);
        if id == a {
            break; // the account we waited for
        }
    }
    Ok(())
}

pub async fn example10(plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>) -> Result<(), Box<dyn std::error::Error>> {
    let checkpoint = plinth.audit().retrieve_checkpoint().await?;
    let mut after = 0;
    while after < checkpoint.size {
        for link in plinth.audit().list_chain(Some(after), Some(1000)).await?.into_inner().data {
            after = link.sequence;
            if after == checkpoint.size {
                println!("{}", link.hash == checkpoint.hash); // true: the chain ends where the checkpoint says
            }
        }
    }
    Ok(())
}
// readme-examples:end
