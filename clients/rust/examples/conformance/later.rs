//! Steps 13–19 of the scenario: every other operation, through the layer's methods only.

use std::time::{Duration, Instant};

use plinth::models::{
    close_account_request, freeze_account_request, CloseAccountRequest, CreateAccountRequest, CreateApiKeyRequest, CreateTransferRequest,
    FreezeAccountRequest, RotateWebhookEndpointSecretRequest, SimulateDepositRequest, SimulateWithdrawalRequest, UpdateWebhookEndpointRequest,
};
use plinth::{AccountFilter, Client, EventFilter, ListParams, RequestOptions, TransferFilter};

use crate::{expect_error, fail, ok};

/// The endpoint of step 12: its id, its first secret, and the id of its test event.
pub struct Endpoint {
    pub id: String,
    pub secret: String,
    pub test_event_id: String,
}

pub async fn run(client: &Client, accounts: &[String], transfer_id: &str, endpoint: Endpoint) {
    let (first, second) = (&accounts[0], &accounts[1]);
    let none = RequestOptions::default;

    // 13. Freeze the second account; list the frozen ones; a transfer to it fails; unfreeze it.
    let mut freeze = FreezeAccountRequest::new(freeze_account_request::Reason::ComplianceReview);
    freeze.note = Some("conformance".into());
    let a = ok(client.accounts().freeze(second, freeze, none()).await);
    check!(a.status == "frozen", "status {}", a.status);
    let reason = a.status_details.clone().map(|d| d.reason);
    check!(reason.as_deref() == Some("compliance_review"), "status_details reason {reason:?}");
    let frozen: Vec<String> = ok(client.accounts().list(AccountFilter::default().status("frozen"), ListParams::default()).collect().await).into_iter().map(|a| a.id).collect();
    check!(frozen == [second.clone()], "frozen accounts {frozen:?}");
    let e = expect_error(client.transfers().create(CreateTransferRequest::new(first.clone(), second.clone(), 1, "USD".into()), none()).await, 409, "account_frozen");
    check!(e.param.as_deref() == Some("to_account_id"), "param {:?}", e.param);
    let b = ok(client.accounts().unfreeze(second, none()).await);
    check!(b.status == "active" && b.status_details.is_none(), "status {} details {:?}", b.status, b.status_details);
    println!("ok 13 freeze, list by status, a transfer to a frozen account fails (409 account_frozen, to_account_id), unfreeze");

    // 14. A sandbox withdrawal: the debit transaction.
    let t = ok(client.sandbox().withdraw(first, SimulateWithdrawalRequest::new(500), none()).await);
    check!(t.amount == -500 && t.balance_after == 7000, "amount {} balance_after {}", t.amount, t.balance_after);
    println!("ok 14 sandbox withdrawal: -500, balance_after 7000");

    // 15. The second account's transfers: the one of step 4b.
    let ids: Vec<String> = ok(client.transfers().list(TransferFilter::default().account_id(second), ListParams::default()).collect().await).into_iter().map(|t| t.id).collect();
    check!(ids == [transfer_id.to_owned()], "transfers {ids:?}, want {transfer_id}");
    let got = ok(client.transfers().retrieve(transfer_id).await);
    check!(got.id == transfer_id && got.amount == 2500, "retrieved {} {}", got.id, got.amount);
    println!("ok 15 transfers of one account: exactly the transfer of 4b; retrieve");

    // 16. A third account, closed: a deposit to it fails.
    let third = ok(client.accounts().create(CreateAccountRequest::new(plinth::models::create_account_request::Type::Business, "US".into()), none()).await).id.clone();
    let mut close = CloseAccountRequest::new();
    close.reason = Some(close_account_request::Reason::CustomerRequest);
    let c = ok(client.accounts().close(&third, close, none()).await);
    check!(c.status == "closed" && c.closed_at.is_some(), "status {} closed_at {:?}", c.status, c.closed_at);
    expect_error(client.sandbox().deposit(&third, SimulateDepositRequest::new(1), none()).await, 409, "account_closed");
    println!("ok 16 close an account; a deposit to it fails (409 account_closed)");

    // 17. Events of one type across pages of 2, newest first; retrieve the first.
    let events = ok(client.events().list(EventFilter::default().r#type("fintech.account.created"), ListParams::limit(2)).collect().await);
    check!(events.len() >= 3, "{} events", events.len());
    check!(events.iter().all(|e| e.r#type == "fintech.account.created"), "types {:?}", events.iter().map(|e| &e.r#type).collect::<Vec<_>>());
    check!(events.windows(2).all(|w| w[1].sequence < w[0].sequence), "sequences {:?}", events.iter().map(|e| e.sequence).collect::<Vec<_>>());
    let one = ok(client.events().retrieve(&events[0].id).await);
    check!(one.id == events[0].id && one.sequence == events[0].sequence, "retrieved {} #{}", one.id, one.sequence);
    println!("ok 17 {} events of type fintech.account.created, sequences decreasing; retrieve", events.len());

    // 18. The endpoint of step 12: update, its deliveries, retry one, rotate the secret, list, delete.
    let mut update = UpdateWebhookEndpointRequest::new();
    update.description = Some(Some("updated".into()));
    let u = ok(client.webhook_endpoints().update(&endpoint.id, update, None, none()).await);
    check!(u.description.as_deref() == Some("updated"), "description {:?}", u.description);
    // The receiver has the test delivery (step 12); the server records its success just after answering it.
    let deadline = Instant::now() + Duration::from_secs(10);
    let delivery = loop {
        let all = ok(client.webhook_endpoints().list_deliveries(&endpoint.id, None, ListParams::default()).collect().await);
        let found = all.into_iter().find(|d| d.event_id == endpoint.test_event_id);
        match found {
            Some(d) if d.status == "succeeded" => break d,
            other if Instant::now() >= deadline => fail(format!("test delivery {other:?}")),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    let via_event = ok(client.events().list_deliveries(&endpoint.test_event_id, ListParams::default()).collect().await);
    check!(via_event.iter().any(|d| d.id == delivery.id), "the event's deliveries lack {}", delivery.id);
    let retried = ok(client.webhook_deliveries().retry(&delivery.id, none()).await);
    check!(retried.id == delivery.id, "retried {}", retried.id);
    let rotated = ok(client.webhook_endpoints().rotate_secret(&endpoint.id, RotateWebhookEndpointSecretRequest::new(), none()).await);
    check!(rotated.secret.starts_with("whsec_") && rotated.secret != endpoint.secret, "rotated secret {}", rotated.secret);
    let listed = ok(client.webhook_endpoints().list(ListParams::default()).collect().await);
    check!(listed.iter().any(|w| w.id == endpoint.id), "endpoint not listed");
    let gone = ok(client.webhook_endpoints().delete(&endpoint.id).await);
    check!(gone.deleted, "deleted {}", gone.deleted);
    expect_error(client.webhook_endpoints().retrieve(&endpoint.id).await, 404, "resource_not_found");
    println!("ok 18 endpoint update, deliveries (succeeded), retry, rotate, list, delete (then 404)");

    // 19. API keys: create, list, retrieve, revoke.
    let mut named = CreateApiKeyRequest::new();
    named.name = Some("conformance".into());
    let k = ok(client.api_keys().create(named, none()).await);
    check!(k.key.starts_with("sk_test_") && k.name.as_deref() == Some("conformance"), "key {k:?}");
    let keys = ok(client.api_keys().list(ListParams::default()).collect().await);
    check!(keys.iter().any(|each| each.id == k.id), "key not listed");
    check!(ok(client.api_keys().retrieve(&k.id).await).id == k.id, "retrieve");
    let revoked = ok(client.api_keys().revoke(&k.id, none()).await);
    check!(revoked.revoked_at.is_some(), "revoked_at null");
    println!("ok 19 api keys: create (a plain sk_test_ key), list, retrieve, revoke");
}
