//! Live reload: a task that reads the model file every [`POLL`] and rebuilds the [`Ui`]'s
//! snapshot when the text changed, so a saved edit reaches open pages (through
//! `/api/events`) within a second.
//!
//! It compares the text rather than the modification time: editors that write a new file and
//! rename it, clocks with coarse resolution and two saves in one second are all seen the same.
//! A text is built only once two reads in a row agree, so a file caught half-written (an editor
//! that truncates, then writes) never flashes an error on open pages.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::Ui;

/// How often the file is read.
pub const POLL: Duration = Duration::from_millis(200);

/// Watches `ui`'s model file until `stop` turns `true` (returns at once when the model does
/// not come from a file).
pub async fn watch(ui: Arc<Ui>, mut stop: watch::Receiver<bool>) {
    if ui.file().is_none() {
        return;
    }
    let mut tick = tokio::time::interval(POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut previous = None;
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let now = ui.file().and_then(|f| crate::read_model_bytes(f).ok());
                let settled = now == previous;
                previous = now;
                if settled && ui.reload().await {
                    tracing::info!(version = ui.version(), "model reloaded");
                }
            }
            () = crate::stopped(&mut stop) => return,
        }
    }
}
