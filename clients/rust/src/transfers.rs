//! Transfers (plain, or pending: held, then posted, voided or expired; reversed) and the sandbox simulations.

use reqwest::Method;

use crate::apis::{fintech_transactions_api as transactions, fintech_transfers_api as transfers};
use crate::client::{Client, RequestOptions};
use crate::error::{Error, Response};
use crate::filters::{encode, query, MetadataUpdate, TransferFilter};
use crate::list::{pages, ListIter, ListParams};
use crate::models;

/// `/v1/fintech/transfers`: `client.transfers()`.
pub struct Transfers<'a> {
    pub(crate) client: &'a Client,
}

impl<'a> Transfers<'a> {
    /// `createTransfer`: `posted` at once, or, with `pending: Some(true)`, `pending`: the amount is held on the
    /// sender's available balance until [`Transfers::post`], [`Transfers::void`] or the expiry (`expires_in_seconds`,
    /// 60–2592000, default 7 days). One Idempotency-Key for all its attempts, so the money moves once.
    pub async fn create(&self, params: models::CreateTransferRequest, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let p = transfers::CreateTransferParams { create_transfer_request: params, idempotency_key: None };
        self.client.call(options, false, transfers::create_transfer(&self.client.config, p)).await
    }

    /// `retrieveTransfer`.
    pub async fn retrieve(&self, id: &str) -> Result<Response<models::Transfer>, Error> {
        let p = transfers::RetrieveTransferParams { id: id.to_owned() };
        self.client.call(RequestOptions::default(), false, transfers::retrieve_transfer(&self.client.config, p)).await
    }

    /// `listTransfers`: every transfer that passes `filter` (`TransferFilter::default()` for all), newest first, a
    /// page at a time; the filter goes with every page.
    pub fn list(&self, filter: TransferFilter, params: ListParams) -> ListIter<'a, models::Transfer> {
        let fetch = move |client: &'a Client, params: ListParams| {
            let filter = filter.clone();
            async move {
                let page = client.transfers().list_page(filter, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |t| t.id.clone())
    }

    /// `listTransfers`: one page.
    pub async fn list_page(&self, filter: TransferFilter, params: ListParams) -> Result<Response<models::TransferList>, Error> {
        let plain = [("account_id", filter.account_id.as_deref()), ("status", filter.status.as_deref())];
        let q = query(&params, &plain, filter.created.as_ref(), &filter.metadata);
        self.client.send(Method::GET, &format!("/v1/fintech/transfers{q}"), None, RequestOptions::default()).await
    }

    /// `updateTransfer`: its metadata changed or cleared (see [`MetadataUpdate`]), in any status.
    pub async fn update(&self, id: &str, metadata: MetadataUpdate, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let body = serde_json::json!({ "metadata": metadata });
        self.client.send(Method::POST, &format!("/v1/fintech/transfers/{}", encode(id)), Some(body), options).await
    }

    /// `postTransfer`: settles a pending transfer, all of it (`None`) or `amount` (1 to the pending amount; the rest
    /// goes back to the sender's available balance): `posted`, `posted_amount` set. 409 `transfer_not_pending` when it
    /// is not pending, `transfer_expired` after its expiry.
    pub async fn post(&self, id: &str, amount: Option<i64>, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let request = models::PostTransferRequest { amount };
        let p = transfers::PostTransferParams { id: id.to_owned(), idempotency_key: None, post_transfer_request: Some(request) };
        self.client.call(options, false, transfers::post_transfer(&self.client.config, p)).await
    }

    /// `voidTransfer`: cancels a pending transfer, `voided`, its hold released and no money moved (409 as for
    /// [`Transfers::post`]).
    pub async fn void(&self, id: &str, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let p = transfers::VoidTransferParams { id: id.to_owned(), idempotency_key: None };
        self.client.call(options, false, transfers::void_transfer(&self.client.config, p)).await
    }

    /// `createTransferReversal`: moves money of a `posted` transfer back to its sender: `amount` of it (1 to what
    /// remains) or, with `CreateTransferReversalRequest::new()`, all that remains (`posted_amount` −
    /// `amount_reversed`); a `description` and `metadata` if given. 409 `transfer_not_reversible` when the transfer is
    /// not posted or is fully reversed. One Idempotency-Key for all its attempts, so the money moves back once.
    pub async fn reverse(&self, id: &str, params: models::CreateTransferReversalRequest, options: RequestOptions) -> Result<Response<models::TransferReversal>, Error> {
        let p = transfers::CreateTransferReversalParams { id: id.to_owned(), idempotency_key: None, create_transfer_reversal_request: Some(params) };
        self.client.call(options, false, transfers::create_transfer_reversal(&self.client.config, p)).await
    }

    /// `listTransferReversals`: every reversal of the transfer `id`, newest first, a page at a time.
    pub fn list_reversals(&self, id: &str, params: ListParams) -> ListIter<'a, models::TransferReversal> {
        let id = id.to_owned();
        let fetch = move |client: &'a Client, params: ListParams| {
            let id = id.clone();
            async move {
                let page = client.transfers().list_reversals_page(&id, params).await?.into_inner();
                Ok((page.data, page.has_more))
            }
        };
        pages(self.client, params, fetch, |r| r.id.clone())
    }

    /// `listTransferReversals`: one page.
    pub async fn list_reversals_page(&self, id: &str, params: ListParams) -> Result<Response<models::TransferReversalList>, Error> {
        let p = transfers::ListTransferReversalsParams {
            id: id.to_owned(),
            limit: params.limit,
            starting_after: params.starting_after,
            ending_before: params.ending_before,
        };
        self.client.call(RequestOptions::default(), false, transfers::list_transfer_reversals(&self.client.config, p)).await
    }

    /// `retrieveTransferReversal`: one reversal of the transfer `id`.
    pub async fn retrieve_reversal(&self, id: &str, reversal_id: &str) -> Result<Response<models::TransferReversal>, Error> {
        let p = transfers::RetrieveTransferReversalParams { id: id.to_owned(), reversal_id: reversal_id.to_owned() };
        self.client.call(RequestOptions::default(), false, transfers::retrieve_transfer_reversal(&self.client.config, p)).await
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

    /// `simulateTransferExpiry`: a pending transfer expires now, as at its `expires_at`: `expired`, its hold
    /// released; so a test meets expiry without waiting.
    pub async fn expire_transfer(&self, id: &str, options: RequestOptions) -> Result<Response<models::Transfer>, Error> {
        let p = transactions::SimulateTransferExpiryParams { id: id.to_owned(), idempotency_key: None };
        self.client.call(options, false, transactions::simulate_transfer_expiry(&self.client.config, p)).await
    }
}
