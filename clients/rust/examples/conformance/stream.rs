//! Step 25 of the scenario: the live event stream through the rewriting proxy, which splits each event's data over
//! two lines, adds a comment and a retry field, and loses the connection after every event (ended cleanly, then
//! cut). The stream yields the last three listed events once each, in order, then a live one; a type filter holds;
//! closing it stops it; a revoked key's stream returns the typed error, 401.

use plinth::models::CreateApiKeyRequest;
use plinth::{Client, Error, EventFilter, ListParams, RequestOptions, StreamParams};

use crate::{business, fail, ok};

pub async fn run(client: &Client, key: &str, proxy_url: &str) {
    let none = RequestOptions::default;
    let proxied = Client::builder().api_key(key).base_url(proxy_url).build();
    let listed = ok(client.events().list_page(EventFilter::default(), ListParams::limit(3)).await).into_inner().data;
    check!(listed.len() == 3, "{} events listed", listed.len());
    let newest = i64::from(listed[0].sequence);
    let mut stream = proxied.events().stream(StreamParams { after: Some(newest - 3), ..Default::default() });
    for want in listed.iter().rev() {
        let event = ok(stream.next().await.unwrap_or_else(|| fail("the stream ended".into())));
        check!(event.id == want.id && event.sequence == want.sequence, "streamed {} ({}), listed {} ({})", event.id, event.sequence, want.id, want.sequence);
    }
    let live = ok(client.accounts().create(business("US"), none()).await).into_inner().id;
    let event = ok(stream.next().await.unwrap_or_else(|| fail("the stream ended".into())));
    check!(
        i64::from(event.sequence) == newest + 1 && event.r#type == "fintech.account.created" && event.data.object.get("id").and_then(|v| v.as_str()) == Some(live.as_str()),
        "live event {} {}, want {} for {live}",
        event.sequence,
        event.r#type,
        newest + 1
    );
    stream.close();
    check!(stream.next().await.is_none(), "a closed stream has no next event");

    let mut typed = proxied.events().stream(StreamParams { r#type: Some("fintech.account.created".into()), after: Some(0) });
    let mut sequences = Vec::new();
    while sequences.len() < 3 {
        let event = ok(typed.next().await.unwrap_or_else(|| fail("the typed stream ended".into())));
        check!(event.r#type == "fintech.account.created", "typed stream yielded {}", event.r#type);
        check!(sequences.last().is_none_or(|last| event.sequence > *last), "sequences {sequences:?} then {}", event.sequence);
        sequences.push(event.sequence);
    }
    drop(typed);

    let doomed = ok(client.api_keys().create(CreateApiKeyRequest::default(), none()).await).into_inner();
    ok(client.api_keys().revoke(&doomed.id, none()).await);
    let revoked = Client::builder().api_key(&doomed.key).base_url(proxy_url).build();
    match revoked.events().stream(StreamParams::default()).next().await {
        Some(Err(Error::Api(e))) => check!(e.status == 401, "a revoked key's stream: {} {}", e.status, e.code),
        other => fail(format!("a revoked key's stream: {other:?}")),
    }
    println!("ok 25 the event stream resumes across lost connections with no gap and no repeat, live and filtered by type");
}
