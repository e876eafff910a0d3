//! Step 26 of the scenario: money in and out over the rails on the sandbox clock. An inbound ACH credit of 100 to a
//! new account number, an ACH payment of 60 out (held at once: available −60, current unchanged), the clock advanced
//! to the next business day after settlement (settled), a rule that returns it R01 two days after settlement, the
//! clock advanced again (returned, with a reversal of its transfer), and a statement that adds up. It runs last: it
//! moves the organisation's clock days ahead.

use plinth::models::{
    create_external_account_request, create_payment_request, create_payment_rule_request_action, simulate_inbound_payment_request,
    AdvanceSandboxClockRequest, CreateAccountNumberRequest, CreateExternalAccountRequest, CreatePaymentRequest, CreatePaymentRuleRequest,
    CreatePaymentRuleRequestAction, CreatePaymentRuleRequestMatch, SimulateInboundPaymentRequest,
};
use plinth::{Client, ListParams, RequestOptions};

use crate::{business, fail, ok};

/// Days since 1970-01-01 of a civil date (proleptic Gregorian), and back.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + if m <= 2 { 1 } else { 0 }, m, d)
}

/// The day (days since the epoch) of an RFC 3339 time in UTC.
fn day_of(now: &str) -> i64 {
    let part = |range: std::ops::Range<usize>| now.get(range).and_then(|s| s.parse::<i64>().ok()).unwrap_or_else(|| fail(format!("clock now {now}")));
    days_from_civil(part(0..4), part(5..7), part(8..10))
}

fn date(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// 15:00 UTC on the first weekday after `now`: after that day's 09:00 New York settlement, before its cut-off.
fn after_next_settlement(now: &str) -> String {
    let mut day = day_of(now) + 1;
    // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays, 6 on Saturdays.
    while matches!((day + 4).rem_euclid(7), 0 | 6) {
        day += 1;
    }
    format!("{}T15:00Z", date(day))
}

pub async fn run(client: &Client) {
    let none = RequestOptions::default;
    let account = ok(client.accounts().create(business("US"), none()).await).into_inner().id;
    let mut request = CreateAccountNumberRequest::new(account.clone());
    request.name = Some("Main".into());
    let number = ok(client.account_numbers().create(request, none()).await).into_inner();
    check!(number.account_number.len() == 12 && number.account_number.chars().all(|c| c.is_ascii_digit()), "number {:?}", number);
    check!(ok(client.account_numbers().retrieve(&number.id).await).account_number.is_none(), "the number shown again");
    let balances = || async {
        let a = ok(client.accounts().retrieve(&account).await).into_inner();
        (a.current_balance.amount, a.available_balance.amount)
    };
    let start = ok(client.sandbox().retrieve_clock().await).into_inner().now;

    let inbound = SimulateInboundPaymentRequest::new(
        number.account_number.clone(),
        100,
        simulate_inbound_payment_request::Rail::Ach,
        simulate_inbound_payment_request::Direction::Credit,
        "Globex Corporation".into(),
    );
    let inbound = ok(client.sandbox().inbound_payment(inbound, none()).await).into_inner();
    check!(inbound.status == "settled" && inbound.direction == "inbound" && inbound.account_number_id.as_deref() == Some(number.id.as_str()),
        "inbound {} {}", inbound.status, inbound.direction);
    check!(balances().await == (100, 100), "after the inbound credit: {:?}", balances().await);

    // A weekday morning first, so that the cut-off and the settlement are the same in every run.
    ok(client.sandbox().advance_clock(AdvanceSandboxClockRequest::new(after_next_settlement(&start)), none()).await);
    let external = CreateExternalAccountRequest::new(
        "021000021".into(),
        "000123456789".into(),
        "Acme Supplies LLC".into(),
        create_external_account_request::AccountType::Checking,
    );
    let external = ok(client.external_accounts().create(external, none()).await).into_inner().id;
    let payment = CreatePaymentRequest::new(account.clone(), external, 60, create_payment_request::Currency::Usd, create_payment_request::Rail::Ach);
    let payment = ok(client.payments().create(payment, none()).await).into_inner();
    check!(payment.status == "pending_submission", "new payment {}", payment.status);
    check!(balances().await == (100, 40), "held at once (available −60, current unchanged): {:?}", balances().await);

    let settled_at = after_next_settlement(&ok(client.sandbox().retrieve_clock().await).into_inner().now);
    let now = ok(client.sandbox().advance_clock(AdvanceSandboxClockRequest::new(settled_at.clone()), none()).await).into_inner().now;
    check!(now.starts_with(settled_at.trim_end_matches('Z')), "clock {now}, asked {settled_at}");
    check!(ok(client.payments().retrieve(&payment.id).await).status == "settled", "not settled");
    check!(balances().await == (40, 40), "after settlement: {:?}", balances().await);

    let action = CreatePaymentRuleRequestAction {
        r#return: Some(create_payment_rule_request_action::Return::R01),
        at: Some("P2D".into()),
        ..Default::default()
    };
    let matching = CreatePaymentRuleRequestMatch { amount: Some(60), ..Default::default() };
    let rule = ok(client.sandbox().create_payment_rule(CreatePaymentRuleRequest::new(matching, action), none()).await).into_inner();
    check!(rule.id.starts_with("prule_"), "rule {}", rule.id);
    let later = format!("{}T{}", date(day_of(&now) + 3), &settled_at[11..]);
    ok(client.sandbox().advance_clock(AdvanceSandboxClockRequest::new(later), none()).await);
    let returned = ok(client.payments().retrieve(&payment.id).await).into_inner();
    let code = returned.return_reason.as_ref().map(|r| r.code.clone());
    check!(returned.status == "returned" && code.as_deref() == Some("R01"), "returned {} {code:?}", returned.status);
    let transfer = returned.transfer_id.clone().unwrap_or_else(|| fail("a payment with no transfer".into()));
    let reversals = ok(client.transfers().list_reversals(&transfer, ListParams::default()).collect().await);
    check!(reversals.len() == 1 && reversals[0].description.as_deref().unwrap_or("").starts_with("R01"), "reversals {}", reversals.len());
    check!(balances().await == (100, 100), "after the return: {:?}", balances().await);

    let to = ok(client.sandbox().retrieve_clock().await).into_inner().now;
    let s = ok(client.accounts().statement(&account, &start, &to).await).into_inner();
    check!(s.closing_balance == s.opening_balance + s.credits.amount - s.debits.amount && s.closing_balance == 100, "statement {s:?}");
    println!("ok 26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule");
}
