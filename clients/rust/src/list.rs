//! Lists: one page (`list_page`), or every page as it is needed (`list`, a [`ListIter`]).

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;

use crate::client::Client;
use crate::error::Error;

/// Where a list starts and how big its pages are. For a `list` (every page) `limit` is the page size; for a
/// `list_page` it is the page. Filters (`status`, `type`, …) are arguments of the list methods themselves.
#[derive(Debug, Clone, Default)]
pub struct ListParams {
    /// Page size, 1–100; `None` for the server's default (10).
    pub limit: Option<i32>,
    /// An id: objects older than it.
    pub starting_after: Option<String>,
    /// An id: objects newer than it; a `list` then walks towards the newest.
    pub ending_before: Option<String>,
}

impl ListParams {
    /// Pages of `limit` objects from the newest: `ListParams::limit(100)`.
    pub fn limit(limit: i32) -> ListParams {
        ListParams { limit: Some(limit), ..Default::default() }
    }
}

type PageFuture<'a, T> = Pin<Box<dyn Future<Output = Result<(Vec<T>, bool), Error>> + Send + 'a>>;
type Fetch<'a, T> = Box<dyn Fn(&'a Client, ListParams) -> PageFuture<'a, T> + Send + Sync + 'a>;

/// Iterates a list across pages, newest first, following `starting_after` = the last id of a page while `has_more`
/// (or, from an `ending_before`, `ending_before` = the first id of a page):
/// `while let Some(item) = list.next().await { let item = item?; … }`, or `list.collect().await?`.
pub struct ListIter<'a, T> {
    client: &'a Client,
    params: ListParams,
    buffer: VecDeque<T>,
    more: bool,
    fetch: Fetch<'a, T>,
    id: fn(&T) -> String,
}

/// A [`ListIter`] over the pages `fetch` gets; `id` is an object's id, the cursor of the next page.
pub(crate) fn pages<'a, T, F, Fut>(client: &'a Client, params: ListParams, fetch: F, id: fn(&T) -> String) -> ListIter<'a, T>
where
    F: Fn(&'a Client, ListParams) -> Fut + Send + Sync + 'a,
    Fut: Future<Output = Result<(Vec<T>, bool), Error>> + Send + 'a,
{
    let fetch: Fetch<'a, T> = Box::new(move |client, params| Box::pin(fetch(client, params)));
    ListIter { client, params, buffer: VecDeque::new(), more: true, fetch, id }
}

impl<'a, T> ListIter<'a, T> {
    /// The next object, fetching the next page when this one is used up; `None` after the last.
    pub async fn next(&mut self) -> Option<Result<T, Error>> {
        if self.buffer.is_empty() && self.more {
            match (self.fetch)(self.client, self.params.clone()).await {
                Err(e) => {
                    self.more = false;
                    return Some(Err(e));
                }
                Ok((items, more)) => {
                    self.more = more && !items.is_empty();
                    if self.params.ending_before.is_some() {
                        self.params.ending_before = items.first().map(self.id);
                    } else {
                        self.params.starting_after = items.last().map(self.id);
                    }
                    self.buffer.extend(items);
                }
            }
        }
        self.buffer.pop_front().map(Ok)
    }

    /// Collects every remaining object.
    pub async fn collect(mut self) -> Result<Vec<T>, Error> {
        let mut all = Vec::new();
        while let Some(item) = self.next().await {
            all.push(item?);
        }
        Ok(all)
    }
}
