//! The live event stream (`GET /v1/events/stream`, Server-Sent Events; docs/api.md#the-live-event-stream) as an
//! [`EventStream`] that resumes by itself: `client.events().stream(StreamParams::default())`.
//!
//! Hand-written transport: the generated functions have no streaming response. Each event carries its `sequence`,
//! gap-free per organisation and mode; after any disconnection (a network failure, the server restarting or ending
//! the stream) it reconnects with `Last-Event-ID` set to the last sequence it saw, so every event comes once, in
//! order. A refusal that waiting will not change (a revoked key: 401; a bad parameter: 400) is returned once as
//! [`Error::Api`] and ends it; 429 and 5xx are waited out (`Retry-After`, else backoff).

use std::time::Duration;

use crate::client::Client;
use crate::error::{ApiError, Error};
use crate::models;
use crate::operations::Events;
use crate::transport::CallInfo;

const FIRST_DELAY: Duration = Duration::from_millis(250);
const MAX_DELAY: Duration = Duration::from_secs(8);
/// The server writes a comment every 15 s: a connection silent for much longer than that is dead.
const READ_TIMEOUT: Duration = Duration::from_secs(45);

/// What [`Events::stream`] yields.
#[derive(Debug, Clone, Default)]
pub struct StreamParams {
    /// Only events of this type (e.g. `fintech.account.created`).
    pub r#type: Option<String>,
    /// Start after this sequence (0: every event still kept); `None` starts with the next event.
    pub after: Option<i64>,
}

/// The sequences an `event: gap` says the server no longer keeps (the stream carries on from the oldest kept):
/// see [`EventStream::gaps`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub struct Gap {
    pub from: i64,
    pub to: i64,
}

/// One Server-Sent Events message.
#[derive(Debug, Default)]
struct Message {
    id: Option<String>,
    event: Option<String>,
    data: Option<String>,
}

/// A Server-Sent Events parser: bytes in, messages out. Lines end with `\n`, `\r\n` or `\r`; a line starting with
/// `:` is a comment; several `data` lines join with `\n`; `retry` sets the reconnection delay.
#[derive(Debug, Default)]
struct Parser {
    line: Vec<u8>,
    after_cr: bool,
    message: Message,
    retry: Option<Duration>,
}

impl Parser {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Message>) {
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            if b != b'\r' && b != b'\n' {
                self.line.push(b);
                continue;
            }
            self.after_cr = b == b'\r';
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
            self.field(&line, out);
        }
    }

    fn field(&mut self, line: &str, out: &mut Vec<Message>) {
        if line.is_empty() {
            let message = std::mem::take(&mut self.message);
            if message.id.is_some() || message.data.is_some() {
                out.push(message);
            }
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match name {
            "id" if !value.contains('\0') => self.message.id = Some(value.to_owned()),
            "event" => self.message.event = Some(value.to_owned()),
            "data" => match &mut self.message.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.message.data = Some(value.to_owned()),
            },
            "retry" => {
                if let Ok(ms) = value.parse::<u32>() {
                    self.retry = Some(Duration::from_millis(ms.into()));
                }
            }
            _ => {}
        }
    }
}

/// The live events, in sequence order, as they happen: `while let Some(event) = stream.next().await { let event =
/// event?; … }`. Drop it (or stop calling `next`) to stop: the connection ends with it.
pub struct EventStream {
    http: reqwest::Client,
    url: String,
    api_key: Option<String>,
    last: Option<i64>,
    response: Option<reqwest::Response>,
    parser: Parser,
    ready: std::collections::VecDeque<Message>,
    first_delay: Duration,
    delay: Duration,
    gaps: Vec<Gap>,
    retry_after: Option<Duration>,
    done: bool,
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventStream").field("url", &self.url).field("last", &self.last).finish_non_exhaustive()
    }
}

impl<'a> Events<'a> {
    /// The live event stream, resuming by itself: see [`EventStream`].
    pub fn stream(&self, params: StreamParams) -> EventStream {
        EventStream::new(self.client, params)
    }
}

impl EventStream {
    fn new(client: &Client, params: StreamParams) -> EventStream {
        let config = client.configuration();
        let mut url = format!("{}/v1/events/stream", config.base_path);
        if let Some(t) = &params.r#type {
            url.push_str("?type=");
            url.extend(url::form_urlencoded::byte_serialize(t.as_bytes()));
        }
        // No retrying middleware and no overall timeout: the stream lives as long as the caller reads it.
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(30))
            .user_agent(config.user_agent.clone().unwrap_or_default())
            .build()
            .expect("the TLS backend initialises");
        EventStream {
            http,
            url,
            api_key: config.bearer_access_token.clone(),
            last: params.after,
            response: None,
            parser: Parser::default(),
            ready: Default::default(),
            first_delay: FIRST_DELAY,
            delay: FIRST_DELAY,
            gaps: Vec::new(),
            retry_after: None,
            done: false,
        }
    }

    /// The last sequence seen: where the stream would resume.
    pub fn last_sequence(&self) -> Option<i64> {
        self.last
    }

    /// The gaps met so far (`event: gap`: a starting point older than the server's retention), oldest first.
    pub fn gaps(&self) -> &[Gap] {
        &self.gaps
    }

    /// Ends the connection; `next` then returns `None`.
    pub fn close(&mut self) {
        self.done = true;
        self.response = None;
    }

    /// Opens a connection from `last`. `Err(None)`: try again later (`retry_after` set when the server said when);
    /// `Err(Some(_))`: a refusal that waiting will not change.
    async fn connect(&mut self) -> Result<(), Option<Error>> {
        let mut request = self.http.get(&self.url).header("Accept", "text/event-stream");
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        if let Some(last) = self.last {
            request = request.header("Last-Event-ID", last.to_string());
        }
        let Ok(response) = request.send().await else { return Err(None) }; // refused or dropped: reconnect
        let status = response.status().as_u16();
        if status == 429 || status >= 500 {
            self.retry_after = response
                .headers()
                .get("Retry-After")
                .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
                .filter(|s| *s > 0)
                .map(Duration::from_secs);
            return Err(None);
        }
        if status != 200 {
            let info = CallInfo {
                request_id: response.headers().get("Request-Id").and_then(|v| v.to_str().ok()).map(str::to_owned),
                status,
                ..Default::default()
            };
            let text = response.text().await.unwrap_or_default();
            return Err(Some(Error::Api(ApiError::from_body(status, &text, &info))));
        }
        self.delay = self.first_delay;
        self.parser = Parser::default();
        self.response = Some(response);
        Ok(())
    }

    /// The next event, waiting for it (reconnecting as often as needed); `None` once closed or after an error.
    pub async fn next(&mut self) -> Option<Result<models::Event, Error>> {
        while !self.done {
            if let Some(message) = self.ready.pop_front() {
                if let Some(id) = message.id.as_deref().and_then(|id| id.parse().ok()) {
                    self.last = Some(id);
                }
                let Some(data) = message.data else { continue };
                if message.event.as_deref() == Some("gap") {
                    if let Ok(gap) = serde_json::from_str(&data) {
                        self.gaps.push(gap);
                    }
                    continue;
                }
                return Some(serde_json::from_str(&data).map_err(|e| {
                    self.close();
                    Error::Decode(e)
                }));
            }
            let wait = match self.response.as_mut() {
                Some(response) => match tokio::time::timeout(READ_TIMEOUT, response.chunk()).await {
                    Ok(Ok(Some(bytes))) => {
                        let mut out = Vec::new();
                        self.parser.feed(&bytes, &mut out);
                        self.ready.extend(out);
                        if let Some(retry) = self.parser.retry.take() {
                            self.first_delay = retry;
                            self.delay = retry;
                        }
                        continue;
                    }
                    // Ended, failed or silent: reconnect from `last`.
                    _ => {
                        self.response = None;
                        None
                    }
                },
                None => match self.connect().await {
                    Ok(()) => continue,
                    Err(Some(e)) => {
                        self.close();
                        return Some(Err(e));
                    }
                    Err(None) => self.retry_after.take(),
                },
            };
            let wait = wait.unwrap_or_else(|| {
                let wait = self.delay;
                self.delay = (self.delay * 2).min(MAX_DELAY);
                wait
            });
            tokio::time::sleep(wait).await;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&str]) -> (Vec<Message>, Option<Duration>) {
        let mut parser = Parser::default();
        let mut out = Vec::new();
        for chunk in chunks {
            parser.feed(chunk.as_bytes(), &mut out);
        }
        (out, parser.retry)
    }

    #[test]
    fn lines_end_three_ways_and_data_lines_join() {
        // \r\n split across chunks, a lone \r, comments, two data lines, a field without a colon, retry.
        let (out, retry) = parse(&[": open\r", "\nretry: 100\rid: 7\r\n\r\nid: 8\nevent: x\ndata: {\"a\":1,\n", "data: \"b\":2}\ndata\n\nid: 9\n"]);
        assert_eq!(retry, Some(Duration::from_millis(100)));
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!((out[0].id.as_deref(), out[0].data.as_deref()), (Some("7"), None));
        assert_eq!(out[1].event.as_deref(), Some("x"));
        assert_eq!(out[1].data.as_deref(), Some("{\"a\":1,\n\"b\":2}\n"));
    }

    #[test]
    fn a_message_cut_before_its_blank_line_is_not_dispatched() {
        let (out, _) = parse(&["id: 9\nevent: x\ndata: {\"se"]);
        assert!(out.is_empty());
    }
}
