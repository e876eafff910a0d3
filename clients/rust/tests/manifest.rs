//! methods.json cannot lie. Rust has no reflection, so this test names every method by its path: each entry below
//! only compiles if the client has that resource accessor (returning that resource type) and the resource has that
//! method; the test then checks that this list and methods.json name the same methods for the same operations.

use std::collections::BTreeSet;

macro_rules! methods {
    ($( $op:literal => [ $( $accessor:ident : $resource:ident . $method:ident ),+ ] ),* $(,)?) => {
        /// (operationId, "resource.method") for every method named below.
        fn named() -> BTreeSet<(String, String)> {
            let mut all = BTreeSet::new();
            $( $(
                let _: for<'c> fn(&'c plinth::Client) -> plinth::$resource<'c> = plinth::Client::$accessor;
                let _ = plinth::$resource::$method;
                all.insert(($op.to_owned(), format!("{}.{}", stringify!($accessor), stringify!($method))));
            )+ )*
            all
        }
    };
}

methods! {
    "createApiKey" => [api_keys: ApiKeys.create],
    "listApiKeys" => [api_keys: ApiKeys.list, api_keys: ApiKeys.list_page],
    "retrieveApiKey" => [api_keys: ApiKeys.retrieve],
    "revokeApiKey" => [api_keys: ApiKeys.revoke],
    "createAccount" => [accounts: Accounts.create],
    "listAccounts" => [accounts: Accounts.list, accounts: Accounts.list_page],
    "retrieveAccount" => [accounts: Accounts.retrieve],
    "freezeAccount" => [accounts: Accounts.freeze],
    "unfreezeAccount" => [accounts: Accounts.unfreeze],
    "closeAccount" => [accounts: Accounts.close],
    "updateAccount" => [accounts: Accounts.update],
    "retrieveAccountBalances" => [accounts: Accounts.balances],
    "retrieveAccountStatement" => [accounts: Accounts.statement],
    "listAccountTransactions" => [transactions: Transactions.list, transactions: Transactions.list_page],
    "retrieveTransaction" => [transactions: Transactions.retrieve],
    "createTransfer" => [transfers: Transfers.create],
    "listTransfers" => [transfers: Transfers.list, transfers: Transfers.list_page],
    "retrieveTransfer" => [transfers: Transfers.retrieve],
    "updateTransfer" => [transfers: Transfers.update],
    "postTransfer" => [transfers: Transfers.post],
    "voidTransfer" => [transfers: Transfers.void],
    "createTransferReversal" => [transfers: Transfers.reverse],
    "listTransferReversals" => [transfers: Transfers.list_reversals, transfers: Transfers.list_reversals_page],
    "retrieveTransferReversal" => [transfers: Transfers.retrieve_reversal],
    "simulateDeposit" => [sandbox: Sandbox.deposit],
    "simulateWithdrawal" => [sandbox: Sandbox.withdraw],
    "simulateTransferExpiry" => [sandbox: Sandbox.expire_transfer],
    "listEvents" => [events: Events.list, events: Events.list_page],
    "retrieveEvent" => [events: Events.retrieve],
    "listEventDeliveries" => [events: Events.list_deliveries, events: Events.list_deliveries_page],
    "listAuditChain" => [audit: Audit.list_chain],
    "retrieveAuditCheckpoint" => [audit: Audit.retrieve_checkpoint],
    "retrieveAuditPublicKey" => [audit: Audit.retrieve_public_key],
    "createWebhookEndpoint" => [webhook_endpoints: WebhookEndpoints.create],
    "listWebhookEndpoints" => [webhook_endpoints: WebhookEndpoints.list, webhook_endpoints: WebhookEndpoints.list_page],
    "retrieveWebhookEndpoint" => [webhook_endpoints: WebhookEndpoints.retrieve],
    "updateWebhookEndpoint" => [webhook_endpoints: WebhookEndpoints.update],
    "deleteWebhookEndpoint" => [webhook_endpoints: WebhookEndpoints.delete],
    "rotateWebhookEndpointSecret" => [webhook_endpoints: WebhookEndpoints.rotate_secret],
    "testWebhookEndpoint" => [webhook_endpoints: WebhookEndpoints.test],
    "listWebhookEndpointDeliveries" => [webhook_endpoints: WebhookEndpoints.list_deliveries, webhook_endpoints: WebhookEndpoints.list_deliveries_page],
    "retryWebhookDelivery" => [webhook_deliveries: WebhookDeliveries.retry],
    "listRequests" => [requests: Requests.list, requests: Requests.list_page],
    "retrieveRequest" => [requests: Requests.retrieve],
    "retrieveSandboxClock" => [sandbox: Sandbox.retrieve_clock],
    "advanceSandboxClock" => [sandbox: Sandbox.advance_clock],
    "listAccountNumbers" => [account_numbers: AccountNumbers.list, account_numbers: AccountNumbers.list_page],
    "createAccountNumber" => [account_numbers: AccountNumbers.create],
    "retrieveAccountNumber" => [account_numbers: AccountNumbers.retrieve],
    "updateAccountNumber" => [account_numbers: AccountNumbers.update],
    "listExternalAccounts" => [external_accounts: ExternalAccounts.list, external_accounts: ExternalAccounts.list_page],
    "createExternalAccount" => [external_accounts: ExternalAccounts.create],
    "retrieveExternalAccount" => [external_accounts: ExternalAccounts.retrieve],
    "updateExternalAccount" => [external_accounts: ExternalAccounts.update],
    "listPayments" => [payments: Payments.list, payments: Payments.list_page],
    "createPayment" => [payments: Payments.create],
    "retrievePayment" => [payments: Payments.retrieve],
    "cancelPayment" => [payments: Payments.cancel],
    "simulateInboundPayment" => [sandbox: Sandbox.inbound_payment],
    "simulatePaymentSettlement" => [sandbox: Sandbox.settle_payment],
    "simulatePaymentReturn" => [sandbox: Sandbox.return_payment],
    "simulatePaymentRejection" => [sandbox: Sandbox.reject_payment],
    "simulateNotificationOfChange" => [sandbox: Sandbox.notification_of_change],
    "listPaymentRules" => [sandbox: Sandbox.list_payment_rules, sandbox: Sandbox.list_payment_rules_page],
    "createPaymentRule" => [sandbox: Sandbox.create_payment_rule],
    "deletePaymentRule" => [sandbox: Sandbox.delete_payment_rule],
}

#[test]
fn methods_json_names_exactly_the_methods_above() {
    // The one associated function (no resource): it exists, and methods.json names it so.
    let _ = plinth::Client::sign_up;
    let mut expected = named();
    expected.insert(("sandboxSignup".to_owned(), "Client::sign_up".to_owned()));

    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/methods.json");
    let text = std::fs::read_to_string(path).expect("methods.json is readable");
    let manifest: std::collections::BTreeMap<String, Vec<String>> = serde_json::from_str(&text).expect("methods.json is an object of lists");
    let listed: BTreeSet<(String, String)> = manifest.into_iter().flat_map(|(op, names)| names.into_iter().map(move |n| (op.clone(), n))).collect();

    let missing: Vec<_> = expected.difference(&listed).collect();
    let unknown: Vec<_> = listed.difference(&expected).collect();
    assert!(missing.is_empty() && unknown.is_empty(), "methods.json lacks {missing:?}; it names methods this test does not: {unknown:?}");
}
