//! Live reload: a task that reads the model file every [`POLL`] and rebuilds the [`Ui`]'s
//! snapshot when the text changed, so a saved edit reaches open pages (through
//! `/api/events`) within a second.
//!
//! It compares the text rather than the modification time: editors that write a new file and
//! rename it, clocks with coarse resolution and two saves in one second are all seen the same.

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
    loop {
        tokio::select! {
            _ = tick.tick() => {
                if ui.reload().await {
                    tracing::info!(version = ui.version(), "model reloaded");
                }
            }
            () = crate::stopped(&mut stop) => return,
        }
    }
}
