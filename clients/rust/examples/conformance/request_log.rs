//! Step 22 of the scenario: the request log. The create of step 2 is found by its `Request-Id` through the filters
//! (method, status, created[gte]), then retrieved with its body.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use plinth::{Client, Created, ListParams, RequestFilter};

use crate::{fail, ok};

pub async fn run(client: &Client, first_request_id: &str) {
    let since = minute_of(SystemTime::now() - Duration::from_secs(3600));
    let posts = RequestFilter::default().method("POST").status("200").created(Created::default().gte(since));
    let mut found = None;
    // The log is written in batches, a few hundred milliseconds after each answer.
    let deadline = Instant::now() + Duration::from_secs(10);
    while found.is_none() && Instant::now() < deadline {
        let all = ok(client.requests().list(posts.clone(), ListParams::limit(100)).collect().await);
        found = all.into_iter().find(|r| r.id == first_request_id);
        if found.is_none() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let found = found.unwrap_or_else(|| fail(format!("the create of step 2 ({first_request_id}) is not in the request log within 10 s")));
    check!(found.route == "/v1/fintech/accounts", "route {}", found.route);
    let entry = ok(client.requests().retrieve(first_request_id).await).into_inner();
    check!(entry.id == first_request_id && entry.method == "POST" && entry.status == 200 && entry.source == "api",
        "entry {} {} {} {}", entry.id, entry.method, entry.status, entry.source);
    let sent: serde_json::Value = serde_json::from_str(entry.body.as_deref().unwrap_or("{}")).unwrap_or_default();
    check!(sent["type"] == "business" && sent["country"] == "US", "body {:?}", entry.body);
    let page = ok(client.requests().list_page(RequestFilter::default().created(Created::default().gte("2000-01-01T00:00Z")), ListParams::limit(1)).await);
    check!(page.data.len() == 1 && page.has_more, "a page of 1: {} entries, has_more {}", page.data.len(), page.has_more);
    println!("ok 22 the request log: list with filters, retrieve");
}

/// `t` as the API writes a time, `YYYY-MM-DDTHH:MMZ` (the whole minute, UTC), without a date crate: the civil date of
/// a day count is Howard Hinnant's `civil_from_days`.
pub(crate) fn minute_of(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
    let (days, rest) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}Z", rest / 3600, rest % 3600 / 60)
}

/// `t` to the millisecond, RFC 3339 in UTC (`2026-11-24T09:30:05.123Z`): an instant, as the API also reads a time.
pub(crate) fn instant_of(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap();
    let minute = minute_of(t);
    format!("{}:{:02}.{:03}Z", &minute[..minute.len() - 1], since.as_secs() % 60, since.subsec_millis())
}
