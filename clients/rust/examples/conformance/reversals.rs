//! Step 23 of the scenario: a reversal, the balances at a moment before it, a statement around it, and a nickname.
//! The moments are RFC 3339 instants from this machine's clock, which the server shares, taken a few milliseconds
//! after one write and before the next, so which side of a moment each movement falls on never depends on the minute.

use std::time::{Duration, SystemTime};

use plinth::models::{CreateTransferRequest, CreateTransferReversalRequest, SimulateDepositRequest};
use plinth::{Client, ListParams, RequestOptions};

use crate::request_log::instant_of;
use crate::{business, fail, ok};

/// Now, to the millisecond (what the server stores), strictly between the last write and the next.
async fn moment() -> String {
    tokio::time::sleep(Duration::from_millis(5)).await;
    let now = instant_of(SystemTime::now());
    tokio::time::sleep(Duration::from_millis(5)).await;
    now
}

pub async fn run(client: &Client) {
    let none = RequestOptions::default;
    let start = instant_of(SystemTime::now() - Duration::from_secs(60));
    let mut named = business("US");
    named.nickname = Some("Operating".into());
    let a = ok(client.accounts().create(named, none()).await).into_inner().id;
    let b = ok(client.accounts().create(business("US"), none()).await).into_inner().id;
    ok(client.sandbox().deposit(&a, SimulateDepositRequest::new(10000), none()).await);
    let t = ok(client.transfers().create(CreateTransferRequest::new(a.clone(), b.clone(), 3000, "USD".into()), none()).await).into_inner();
    let before = moment().await;
    let part = CreateTransferReversalRequest { amount: Some(1000), ..Default::default() };
    let r = ok(client.transfers().reverse(&t.id, part, none()).await).into_inner();
    check!(r.id.starts_with("trr_") && r.amount == 1000 && r.transfer_id == t.id, "reversal {} {} of {}", r.id, r.amount, r.transfer_id);
    let after = ok(client.transfers().retrieve(&t.id).await);
    check!(after.amount_reversed == 1000 && !after.reversed, "amount_reversed {}, reversed {}", after.amount_reversed, after.reversed);
    let listed: Vec<String> = ok(client.transfers().list_reversals(&t.id, ListParams::default()).collect().await).into_iter().map(|x| x.id).collect();
    check!(listed == [r.id.clone()], "reversals {listed:?}");
    let again = ok(client.transfers().retrieve_reversal(&t.id, &r.id).await);
    check!(again.id == r.id && again.amount == 1000, "retrieved {}", again.id);

    let then = ok(client.accounts().balances(&b, Some(&before)).await);
    let now = ok(client.accounts().balances(&b, None).await);
    check!(then.current_balance.amount == 3000, "at {before}: {:?}", then.current_balance);
    check!(now.current_balance.amount == 2000 && now.available_balance.amount == 2000, "now: {:?} {:?}", now.current_balance, now.available_balance);

    let s = ok(client.accounts().statement(&b, &start, &moment().await).await).into_inner();
    check!(s.closing_balance == s.opening_balance + s.credits.amount - s.debits.amount, "closing != opening + credits - debits: {s:?}");
    check!(s.opening_balance == 0 && s.closing_balance == 2000 && s.credits.count == 1 && s.debits.count == 1 && s.debits.amount == 1000, "statement {s:?}");

    let renamed = ok(client.accounts().update(&b, None, Some("Payroll"), none()).await);
    check!(renamed.nickname.as_deref() == Some("Payroll"), "nickname {:?}", renamed.nickname);
    check!(ok(client.accounts().retrieve(&b).await).nickname.as_deref() == Some("Payroll"), "nickname not read back");
    check!(ok(client.accounts().retrieve(&a).await).nickname.as_deref() == Some("Operating"), "the nickname given at create");
    let cleared = ok(client.accounts().update(&b, None, Some(""), none()).await);
    check!(cleared.nickname.is_none(), "cleared nickname {:?}", cleared.nickname);
    println!("ok 23 reverse part of a transfer; balances before it, a statement around it; a nickname");
}
