//! Steps 20–21 of the scenario: pending transfers, metadata and the list filters, through the layer's methods only.

use std::collections::HashMap;

use plinth::models::{CreateTransferRequest, CreateWebhookEndpointRequest, SimulateDepositRequest, UpdateWebhookEndpointRequest};
use plinth::{AccountFilter, Client, Created, EventFilter, ListParams, MetadataUpdate, RequestOptions, TransactionFilter, TransferFilter};

use crate::{expect_error, fail, ok};

/// No object of this organisation was created on or after this minute.
const FUTURE: &str = "2999-01-01T00:00Z";

fn map(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

pub async fn run(client: &Client, accounts: &[String], receiver_url: &str) {
    let (first, second) = (&accounts[0], &accounts[1]);
    let none = RequestOptions::default;
    let pending = |amount: i64| {
        let mut t = CreateTransferRequest::new(first.clone(), second.clone(), amount, "USD".into());
        t.pending = Some(true);
        t
    };

    // 20. A hold of 4000, 2500 of it posted; a hold voided; a hold expired; posting either fails.
    let had = ok(client.accounts().retrieve(first).await).current_balance.amount;
    ok(client.sandbox().deposit(first, SimulateDepositRequest::new(10000), none()).await);
    let mut request = pending(4000);
    request.metadata = Some(map(&[("order", "A-1")]));
    request.expires_in_seconds = Some(3600);
    let held = ok(client.transfers().create(request, none()).await);
    check!(held.status == "pending" && held.pending && held.expires_at.is_some() && held.posted_amount.is_none(),
        "pending transfer {} expires_at {:?} posted {:?}", held.status, held.expires_at, held.posted_amount);
    check!(held.metadata == map(&[("order", "A-1")]), "metadata {:?}", held.metadata);
    let a = ok(client.accounts().retrieve(first).await);
    check!(a.current_balance.amount == had + 10000 && a.available_balance.amount == had + 6000,
        "balances current {} available {}", a.current_balance.amount, a.available_balance.amount);
    let posted = ok(client.transfers().post(&held.id, Some(2500), none()).await);
    check!(posted.status == "posted" && posted.posted_amount == Some(2500), "posted {} {:?}", posted.status, posted.posted_amount);
    let b = ok(client.accounts().retrieve(first).await);
    check!(b.available_balance.amount == b.current_balance.amount && b.current_balance.amount == had + 7500,
        "balances current {} available {}", b.current_balance.amount, b.available_balance.amount);

    let to_void = ok(client.transfers().create(pending(1000), none()).await);
    let voided = ok(client.transfers().void(&to_void.id, none()).await);
    check!(voided.status == "voided", "voided {}", voided.status);
    expect_error(client.transfers().post(&to_void.id, None, none()).await, 409, "transfer_not_pending");

    let to_expire = ok(client.transfers().create(pending(500), none()).await);
    let expired = ok(client.sandbox().expire_transfer(&to_expire.id, none()).await);
    check!(expired.status == "expired", "expired {}", expired.status);
    expect_error(client.transfers().post(&to_expire.id, None, none()).await, 409, "transfer_expired");
    println!("ok 20 pending transfers: hold, post 2500 of 4000, void, expire (409 transfer_not_pending, transfer_expired)");

    // 21. Metadata set, filtered on, removed; lists filtered by status, metadata and time.
    let updated = ok(client.accounts().update(first, Some(MetadataUpdate::changes([("customer", "c-42")])), None, none()).await);
    check!(updated.metadata == map(&[("customer", "c-42")]), "metadata {:?}", updated.metadata);
    let by_metadata = ok(client.accounts().list(AccountFilter::default().metadata("customer", "c-42"), ListParams::default()).collect().await);
    let ids: Vec<&str> = by_metadata.iter().map(|a| a.id.as_str()).collect();
    check!(ids == [first.as_str()], "accounts with metadata[customer]=c-42: {ids:?}");

    let holds = [&held.id, &to_void.id, &to_expire.id];
    let still = ok(client.transfers().list(TransferFilter::default().status("pending"), ListParams::default()).collect().await);
    check!(still.iter().all(|t| !holds.contains(&&t.id)), "still pending: {:?}", still.iter().map(|t| &t.id).collect::<Vec<_>>());
    let by_order = ok(client.transfers().list(TransferFilter::default().metadata("order", "A-1"), ListParams::default()).collect().await);
    let ids: Vec<&str> = by_order.iter().map(|t| t.id.as_str()).collect();
    check!(ids == [held.id.as_str()], "transfers with metadata[order]=A-1: {ids:?}");
    let cleared = ok(client.transfers().update(&held.id, MetadataUpdate::changes([("order", "")]), none()).await);
    check!(cleared.metadata.is_empty(), "metadata {:?}", cleared.metadata);

    let since = Created::default().gte(updated.created_at.clone());
    let events = ok(client.events().list(EventFilter::default().created(since.clone()), ListParams::default()).collect().await);
    check!(!events.is_empty(), "no event created since {}", updated.created_at);
    // The bounds are on the wire: none from the future, and the first account's transactions since its creation.
    let future = Created::default().gte(FUTURE);
    let later = ok(client.events().list_page(EventFilter::default().created(future.clone()), ListParams::default()).await);
    check!(later.data.is_empty(), "events from the future: {}", later.data.len());
    let transactions = ok(client.transactions().list(first, TransactionFilter::default().created(since), ListParams::default()).collect().await);
    check!(transactions.len() >= 4, "transactions since {}: {}", updated.created_at, transactions.len());
    let none_yet = ok(client.transactions().list_page(first, TransactionFilter::default().created(future), ListParams::default()).await);
    check!(none_yet.data.is_empty(), "transactions from the future: {}", none_yet.data.len());

    // "" clears every key, on an account and on a webhook endpoint (created with metadata, changed, cleared).
    let account = ok(client.accounts().update(first, Some(MetadataUpdate::ClearAll), None, none()).await);
    check!(account.metadata.is_empty(), "account metadata not cleared: {:?}", account.metadata);
    let mut create = CreateWebhookEndpointRequest::new(format!("{receiver_url}/hook"), vec!["fintech.transfer.posted".into()]);
    create.metadata = Some(map(&[("team", "payments")]));
    let endpoint = ok(client.webhook_endpoints().create(create, none()).await);
    check!(endpoint.metadata == map(&[("team", "payments")]), "endpoint {:?}", endpoint.metadata);
    let changes = MetadataUpdate::changes([("team", ""), ("owner", "ops")]);
    let changed = ok(client.webhook_endpoints().update(&endpoint.id, UpdateWebhookEndpointRequest::new(), Some(changes), none()).await);
    check!(changed.metadata == map(&[("owner", "ops")]), "endpoint {:?}", changed.metadata);
    let emptied = ok(client.webhook_endpoints().update(&endpoint.id, UpdateWebhookEndpointRequest::new(), Some(MetadataUpdate::ClearAll), none()).await);
    check!(emptied.metadata.is_empty(), "endpoint metadata not cleared: {:?}", emptied.metadata);
    ok(client.webhook_endpoints().delete(&endpoint.id).await);
    println!("ok 21 metadata set, filtered on and removed; lists filtered by status, metadata and created");
}
