//! The fintech resources: accounts and their transactions (transfers and sandbox simulations: transfers.rs).

use reqwest::Method;

use crate::apis::{fintech_accounts_api as accounts, fintech_transactions_api as transactions};
use crate::client::{Client, RequestOptions};
use crate::error::{Error, Response};
use crate::filters::{encode, query, AccountFilter, MetadataUpdate, TransactionFilter};
use crate::list::{pages, ListIter, ListParams};
use crate::models;

/// `/v1/fintech/accounts`: `client.accounts()`.
pub struct Accounts<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Accounts<'a> {
    /// `createAccount`. One Idempotency-Key for all its attempts (`RequestOptions::idempotency_key` to choose it).
    pub async fn create(&self, params: models::CreateAccountRequest, options: RequestOptions) -> Result<Response<models::Account>, Error> {
        let p = accounts::CreateAccountParams { create_account_request: params, idempotency_key: None };
        self.client.call(options, false, accounts::create_account(&self.client.config, p)).await
    }

    /// `retrieveAccount`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::Account>, Error> {
        let p = accounts::RetrieveAccountParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, accounts::retrieve_account(&self.client.config, p)).await
    }

    /// `listAccounts`: every account that passes `filter` (`AccountFilter::default()` for all), newest first, a page
    /// at a time; the filter goes with every page.
    pub fn list(&self, filter: AccountFilter, params: ListParams) -> ListIter<'a, models::Account> {
        let fetch = move |client: &'a Client, params: ListParams| {
            let filter = filter.clone();
            async move {
                let page = client.accounts().list_page(filter, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |a| a.id.clone())
    }

    /// `listAccounts`: one page.
    pub async fn list_page(&self, filter: AccountFilter, params: ListParams) -> Result<Response<models::AccountList>, Error> {
        let q = query(&params, &[("status", filter.status.as_deref())], filter.created.as_ref(), &filter.metadata);
        self.client.send(Method::GET, &format!("/v1/fintech/accounts{q}"), None, RequestOptions::default()).await
    }

    /// `updateAccount`: its metadata changed (`Some(MetadataUpdate::changes(…))`) or cleared
    /// (`Some(MetadataUpdate::ClearAll)`), its nickname set (`Some("Payroll")`) or removed (`Some("")`); either or
    /// both (`None` leaves it). Allowed on a closed account. The generated request cannot carry the metadata (its
    /// "changes or `\"\"`" schema became an empty struct), so the layer sends the body itself.
    pub async fn update(&self, id: &str, metadata: Option<MetadataUpdate>, nickname: Option<&str>, options: RequestOptions) -> Result<Response<models::Account>, Error> {
        let mut body = serde_json::Map::new();
        if let Some(metadata) = metadata {
            body.insert("metadata".into(), serde_json::to_value(metadata).expect("metadata serialises"));
        }
        if let Some(nickname) = nickname {
            body.insert("nickname".into(), nickname.into());
        }
        self.client.send(Method::POST, &format!("/v1/fintech/accounts/{}", encode(id)), Some(body.into()), options).await
    }

    /// `retrieveAccountBalances`: the balances as they stood at `at`, inclusive (`None`: now): `2026-11-24T09:30Z`
    /// (the end of that minute) or RFC 3339 with an offset (that instant); not before the account was opened; after
    /// now is read as now.
    pub async fn balances(&self, id: &str, at: Option<&str>) -> Result<Response<models::AccountBalances>, Error> {
        let p = transactions::RetrieveAccountBalancesParams { id: id.to_owned(), at: at.map(str::to_owned) };
        self.client.call(RequestOptions::default(), false, transactions::retrieve_account_balances(&self.client.config, p)).await
    }

    /// `retrieveAccountStatement` for [`from`, `to`): opening and closing balances, credits and debits, and always
    /// `closing = opening + credits − debits`. A minute form names that minute's start; a `to` after now is now.
    pub async fn statement(&self, id: &str, from: &str, to: &str) -> Result<Response<models::AccountStatement>, Error> {
        let p = transactions::RetrieveAccountStatementParams { id: id.to_owned(), from: from.to_owned(), to: to.to_owned() };
        self.client.call(RequestOptions::default(), false, transactions::retrieve_account_statement(&self.client.config, p)).await
    }

    /// `freezeAccount`: no debit or credit until unfrozen.
    pub async fn freeze(&self, id: &str, params: models::FreezeAccountRequest, options: RequestOptions) -> Result<Response<models::Account>, Error> {
        let p = accounts::FreezeAccountParams { id: id.to_owned(), freeze_account_request: params, idempotency_key: None };
        self.client.call(options, false, accounts::freeze_account(&self.client.config, p)).await
    }

    /// `unfreezeAccount`.
    pub async fn unfreeze(&self, id: &str, options: RequestOptions) -> Result<Response<models::Account>, Error> {
        let p = accounts::UnfreezeAccountParams { id: id.to_owned(), idempotency_key: None };
        self.client.call(options, false, accounts::unfreeze_account(&self.client.config, p)).await
    }

    /// `closeAccount`: final; both balances must be 0. `CloseAccountRequest::new()` for no reason (`other`).
    pub async fn close(&self, id: &str, params: models::CloseAccountRequest, options: RequestOptions) -> Result<Response<models::Account>, Error> {
        let p = accounts::CloseAccountParams { id: id.to_owned(), close_account_request: Some(params), idempotency_key: None };
        self.client.call(options, false, accounts::close_account(&self.client.config, p)).await
    }
}

/// What each movement of money did to one account: `client.transactions()`.
pub struct Transactions<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Transactions<'a> {
    /// `listAccountTransactions`: every transaction of an account (that passes `filter`), newest first, a page at a
    /// time.
    pub fn list(&self, account_id: &str, filter: TransactionFilter, params: ListParams) -> ListIter<'a, models::Transaction> {
        let account_id = account_id.to_owned();
        let fetch = move |client: &'a Client, params: ListParams| {
            let (account_id, filter) = (account_id.clone(), filter.clone());
            async move {
                let page = client.transactions().list_page(&account_id, filter, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |t| t.id.clone())
    }

    /// `listAccountTransactions`: one page.
    pub async fn list_page(&self, account_id: &str, filter: TransactionFilter, params: ListParams) -> Result<Response<models::TransactionList>, Error> {
        let q = query(&params, &[], filter.created.as_ref(), &Default::default());
        self.client.send(Method::GET, &format!("/v1/fintech/accounts/{}/transactions{q}", encode(account_id)), None, RequestOptions::default()).await
    }

    /// `retrieveTransaction`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::Transaction>, Error> {
        let p = transactions::RetrieveTransactionParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, transactions::retrieve_transaction(&self.client.config, p)).await
    }
}
