//! The fintech resources: accounts, their transactions, transfers, sandbox simulations.

use crate::apis::{fintech_accounts_api as accounts, fintech_transactions_api as transactions, fintech_transfers_api as transfers};
use crate::client::{Client, RequestOptions};
use crate::error::{Error, Response};
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

    /// `listAccounts`: every account (in `status` — `active`, `frozen`, `closed` — if given), newest first, a page at
    /// a time.
    pub fn list(&self, status: Option<&str>, params: ListParams) -> ListIter<'a, models::Account> {
        let status = status.map(str::to_owned);
        let fetch = move |client: &'a Client, params: ListParams| {
            let status = status.clone();
            async move {
                let page = client.accounts().list_page(status.as_deref(), params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |a| a.id.clone())
    }

    /// `listAccounts`: one page.
    pub async fn list_page(&self, status: Option<&str>, params: ListParams) -> Result<Response<models::AccountList>, Error> {
        let p = accounts::ListAccountsParams {
            limit: params.limit,
            starting_after: params.starting_after,
            ending_before: params.ending_before,
            status: status.map(str::to_owned),
        };
        self.client.call(RequestOptions::default(), false, accounts::list_accounts(&self.client.config, p)).await
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
    /// `listAccountTransactions`: every transaction of an account, newest first, a page at a time.
    pub fn list(&self, account_id: &str, params: ListParams) -> ListIter<'a, models::Transaction> {
        let account_id = account_id.to_owned();
        let fetch = move |client: &'a Client, params: ListParams| {
            let account_id = account_id.clone();
            async move {
                let page = client.transactions().list_page(&account_id, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |t| t.id.clone())
    }

    /// `listAccountTransactions`: one page.
    pub async fn list_page(&self, account_id: &str, params: ListParams) -> Result<Response<models::TransactionList>, Error> {
        let p = transactions::ListAccountTransactionsParams {
            id: account_id.to_owned(),
            limit: params.limit,
            starting_after: params.starting_after,
            ending_before: params.ending_before,
        };
        self.client.call(RequestOptions::default(), false, transactions::list_account_transactions(&self.client.config, p)).await
    }

    /// `retrieveTransaction`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::Transaction>, Error> {
        let p = transactions::RetrieveTransactionParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, transactions::retrieve_transaction(&self.client.config, p)).await
    }
}

/// `/v1/fintech/transfers`: `client.transfers()`.
pub struct Transfers<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Transfers<'a> {
    /// `createTransfer`, synchronously: the `posted` transfer. One Idempotency-Key for all its attempts, so the money
    /// moves once.
    pub async fn create(&self, params: models::CreateTransferRequest, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let p = transfers::CreateTransferParams { create_transfer_request: params, idempotency_key: None };
        self.client.call(options, false, transfers::create_transfer(&self.client.config, p)).await
    }

    /// `retrieveTransfer`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::Transfer>, Error> {
        let p = transfers::RetrieveTransferParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, transfers::retrieve_transfer(&self.client.config, p)).await
    }

    /// `listTransfers`: every transfer (from or to `account_id`, if given), newest first, a page at a time.
    pub fn list(&self, account_id: Option<&str>, params: ListParams) -> ListIter<'a, models::Transfer> {
        let account_id = account_id.map(str::to_owned);
        let fetch = move |client: &'a Client, params: ListParams| {
            let account_id = account_id.clone();
            async move {
                let page = client.transfers().list_page(account_id.as_deref(), params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |t| t.id.clone())
    }

    /// `listTransfers`: one page.
    pub async fn list_page(&self, account_id: Option<&str>, params: ListParams) -> Result<Response<models::TransferList>, Error> {
        let p = transfers::ListTransfersParams {
            account_id: account_id.map(str::to_owned),
            limit: params.limit,
            starting_after: params.starting_after,
            ending_before: params.ending_before,
        };
        self.client.call(RequestOptions::default(), false, transfers::list_transfers(&self.client.config, p)).await
    }
}

/// `/v1/sandbox/…` simulations (sandbox keys only): `client.sandbox()`.
pub struct Sandbox<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Sandbox<'a> {
    /// `simulateDeposit`: money in from nowhere, for testing; the credit transaction.
    pub async fn deposit(&self, account_id: &str, params: models::SimulateDepositRequest, options: RequestOptions) -> Result<Response<models::Transaction>, Error> {
        let p = transactions::SimulateDepositParams { id: account_id.to_owned(), simulate_deposit_request: params, idempotency_key: None };
        self.client.call(options, false, transactions::simulate_deposit(&self.client.config, p)).await
    }

    /// `simulateWithdrawal`: money out to nowhere; the debit transaction (`insufficient_funds` possible).
    pub async fn withdraw(&self, account_id: &str, params: models::SimulateWithdrawalRequest, options: RequestOptions) -> Result<Response<models::Transaction>, Error> {
        let p = transactions::SimulateWithdrawalParams { id: account_id.to_owned(), simulate_withdrawal_request: params, idempotency_key: None };
        self.client.call(options, false, transactions::simulate_withdrawal(&self.client.config, p)).await
    }
}
