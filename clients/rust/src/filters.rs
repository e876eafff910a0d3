//! The filters of the lists (`created`, `metadata`, `status`, …) and a metadata update. On the wire a filter is
//! OpenAPI's deepObject form, `created[gte]=…` and `metadata[key]=value`, brackets literal and the rest
//! percent-encoded; the generated functions send `created` as bare `gte=…` and encode the brackets, which the server
//! does not read, so the filtered lists build their query here and go through [`crate::Client`]'s own GET (the same
//! middleware: retries, `Request-Id`, errors).

use std::collections::BTreeMap;

use serde::ser::{Serialize, Serializer};

use crate::list::ListParams;

/// Bounds on when objects were created: `Created::default().gte("2026-11-24T00:00Z").lt("2026-11-25T00:00Z")`, sent
/// as `created[gte]=…&created[lt]=…`. A time is `YYYY-MM-DDTHH:MMZ` (a whole minute) or RFC 3339 with an offset
/// (`2026-11-24T09:30:00+01:00`); any other text is refused with 400 `parameter_invalid`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Created {
    /// Created at or after this time.
    pub gte: Option<String>,
    /// Created after this time.
    pub gt: Option<String>,
    /// Created at or before this time.
    pub lte: Option<String>,
    /// Created before this time.
    pub lt: Option<String>,
}

impl Created {
    pub fn gte(mut self, time: impl Into<String>) -> Self {
        self.gte = Some(time.into());
        self
    }
    pub fn gt(mut self, time: impl Into<String>) -> Self {
        self.gt = Some(time.into());
        self
    }
    pub fn lte(mut self, time: impl Into<String>) -> Self {
        self.lte = Some(time.into());
        self
    }
    pub fn lt(mut self, time: impl Into<String>) -> Self {
        self.lt = Some(time.into());
        self
    }
}

/// An update of an object's metadata: `MetadataUpdate::changes([("customer", "c-42"), ("old_ref", "")])` sets
/// `customer`, removes `old_ref` (a key given `""`) and leaves the keys not named; `MetadataUpdate::ClearAll` (the
/// API's `"metadata": ""`) removes every key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataUpdate {
    Changes(BTreeMap<String, String>),
    ClearAll,
}

impl MetadataUpdate {
    pub fn changes<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        MetadataUpdate::Changes(pairs.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}

/// A map of the changes, or `""`.
impl Serialize for MetadataUpdate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            MetadataUpdate::Changes(changes) => changes.serialize(serializer),
            MetadataUpdate::ClearAll => serializer.serialize_str(""),
        }
    }
}

/// The query of one list page: the cursors, then each filter given, `?a=1&created[gte]=…` (empty when none).
pub(crate) fn query(page: &ListParams, filters: &[(&str, Option<&str>)], created: Option<&Created>, metadata: &BTreeMap<String, String>) -> String {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let limit = page.limit.map(|l| l.to_string());
    let plain = [("limit", limit.as_deref()), ("starting_after", page.starting_after.as_deref()), ("ending_before", page.ending_before.as_deref())];
    for (name, value) in plain.iter().chain(filters) {
        if let Some(value) = value {
            pairs.push((encode(name), encode(value)));
        }
    }
    if let Some(c) = created {
        for (bound, value) in [("gte", &c.gte), ("gt", &c.gt), ("lte", &c.lte), ("lt", &c.lt)] {
            if let Some(value) = value {
                pairs.push((format!("created[{bound}]"), encode(value)));
            }
        }
    }
    for (key, value) in metadata {
        pairs.push((format!("metadata[{}]", encode(key)), encode(value)));
    }
    if pairs.is_empty() {
        return String::new();
    }
    let joined: Vec<String> = pairs.into_iter().map(|(n, v)| format!("{n}={v}")).collect();
    format!("?{}", joined.join("&"))
}

/// Percent-encodes all but RFC 3986's unreserved characters (so `%20` for a space, `%2B` for a `+`): a path segment
/// or a query component.
pub(crate) fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
