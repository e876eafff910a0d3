//! Step 24 of the scenario: a read-only key. It reads an account and its balances; its transfer is refused with 403
//! `permission_denied` before anything moves, as the full key's view of the balance shows.

use plinth::models::create_api_key_request_permissions::{Accounts, Transactions};
use plinth::models::{CreateApiKeyRequest, CreateApiKeyRequestPermissions, CreateTransferRequest, SimulateDepositRequest};
use plinth::{Client, RequestOptions};

use crate::{business, expect_error, fail, ok};

pub async fn run(client: &Client, base: &str) {
    let none = RequestOptions::default;
    let a = ok(client.accounts().create(business("US"), none()).await).into_inner().id;
    let b = ok(client.accounts().create(business("US"), none()).await).into_inner().id;
    ok(client.sandbox().deposit(&a, SimulateDepositRequest::new(1000), none()).await);

    let read_only = CreateApiKeyRequestPermissions { accounts: Some(Accounts::Read), transactions: Some(Transactions::Read), ..Default::default() };
    let params = CreateApiKeyRequest { name: Some("read-only".into()), permissions: Some(read_only), ..Default::default() };
    let k = ok(client.api_keys().create(params, none()).await).into_inner();
    check!(k.key.starts_with("rk_test_"), "restricted key {}", k.hint);
    let p = k.permissions.as_ref().unwrap_or_else(|| fail("a restricted key without permissions".into()));
    check!(p.accounts == "read" && p.transactions == "read" && p.transfers == "none", "permissions {p:?}");
    let read = ok(client.api_keys().retrieve(&k.id).await).into_inner().permissions;
    check!(read.as_ref().is_some_and(|r| r.accounts == "read" && r.sandbox == "none"), "retrieved permissions {read:?}");

    let reader = Client::builder().api_key(&k.key).base_url(base).build();
    check!(ok(reader.accounts().retrieve(&a).await).id == a, "the reader retrieves the account");
    let seen = ok(reader.accounts().balances(&a, None).await);
    check!(seen.current_balance.amount == 1000, "the reader's balance {:?}", seen.current_balance);

    let transfer = CreateTransferRequest::new(a.clone(), b.clone(), 100, "USD".into());
    expect_error(reader.transfers().create(transfer, none()).await, 403, "permission_denied");

    let after = ok(client.accounts().balances(&a, None).await);
    check!(after.current_balance.amount == 1000 && after.available_balance.amount == 1000, "nothing moved: {:?} {:?}", after.current_balance, after.available_balance);
    check!(ok(client.accounts().balances(&b, None).await).current_balance.amount == 0, "nothing arrived");
    println!("ok 24 a read-only key reads an account and its balances; its transfer is a 403");
}
