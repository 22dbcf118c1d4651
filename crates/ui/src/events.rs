//! `GET /api/events`: server-sent events telling open pages that the model changed. One
//! `model` event at once, with the current version, and one at each reload:
//! `event: model` / `data: {"version": 3, "valid": true}`. The stream ends when the server
//! stops, so a stop is never held up by an open page.

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde_json::json;
use tokio::sync::watch;

use crate::Ui;

struct Cursor {
    ui: Arc<Ui>,
    versions: watch::Receiver<u64>,
    stop: watch::Receiver<bool>,
    first: bool,
}

impl Cursor {
    /// The next event, or `None` when the server stops.
    async fn next(mut self) -> Option<(Result<Event, Infallible>, Cursor)> {
        if self.first {
            self.versions.borrow_and_update();
        } else {
            tokio::select! {
                changed = self.versions.changed() => changed.ok()?,
                () = crate::stopped(&mut self.stop) => return None,
            }
        }
        if *self.stop.borrow() {
            return None;
        }
        let version = *self.versions.borrow();
        let valid = self.ui.snapshot().await.ready().is_some();
        let data = json!({ "version": version, "valid": valid }).to_string();
        let event = Event::default().event("model").data(data);
        self.first = false;
        Some((Ok(event), self))
    }
}

/// The event stream of `ui`.
pub(crate) fn stream(ui: Arc<Ui>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let cursor = Cursor {
        versions: ui.version.subscribe(),
        stop: ui.stop.clone(),
        first: true,
        ui,
    };
    Sse::new(futures_util::stream::unfold(cursor, Cursor::next)).keep_alive(KeepAlive::default())
}
