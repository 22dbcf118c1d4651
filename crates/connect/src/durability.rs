//! Group commit for the file-backed engine: SQLite commits to its write-ahead log without waiting
//! for the disk (`synchronous = NORMAL`), and one background thread makes the log durable with a
//! single `fsync` for every request that finished meanwhile. A request is answered only once the
//! log holds it on disk, so "acknowledged means on disk" holds while concurrent writers share
//! each flush instead of paying one apiece.
//!
//! Reads wait too, but only for writes that finished before them and are not yet on disk, so
//! nobody is shown data that a crash could take back. With no write pending they do not wait.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use tokio::sync::watch;

/// Where the log is on disk, as far as requests are concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Synced {
    /// Every request numbered up to this one is on disk.
    Upto(u64),
    /// A flush failed: nothing more is acknowledged (the data may not be on disk).
    Failed(String),
}

struct Shared {
    /// Requests that finished in the engine, numbered from 1.
    finished: AtomicU64,
    /// Wakes the flusher: (stop asked, work may be pending).
    wake: Mutex<(bool, bool)>,
    signal: Condvar,
    synced: watch::Sender<Synced>,
    wal: PathBuf,
}

/// The group-commit flusher of one database file. Dropping it flushes once more and stops the
/// thread.
pub(crate) struct Durability {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Durability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Durability")
            .field("wal", &self.shared.wal)
            .finish_non_exhaustive()
    }
}

/// Why a request could not be acknowledged.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the write could not be made durable: {0}")]
pub(crate) struct NotDurable(pub(crate) String);

impl Durability {
    /// Start the flusher for the database whose write-ahead log is `wal`.
    pub(crate) fn start(wal: PathBuf) -> std::io::Result<Durability> {
        let (synced, _) = watch::channel(Synced::Upto(0));
        let shared = Arc::new(Shared {
            finished: AtomicU64::new(0),
            wake: Mutex::new((false, false)),
            signal: Condvar::new(),
            synced,
            wal,
        });
        let worker = shared.clone();
        let thread = std::thread::Builder::new()
            .name("monotable-fsync".into())
            .spawn(move || flush_loop(&worker))?;
        Ok(Durability {
            shared,
            thread: Some(thread),
        })
    }

    /// Note that a write finished in the engine; returns its ticket.
    pub(crate) fn wrote(&self) -> u64 {
        let ticket = self.shared.finished.fetch_add(1, Ordering::SeqCst) + 1;
        let mut wake = self.shared.wake.lock().unwrap_or_else(|p| p.into_inner());
        wake.1 = true;
        self.shared.signal.notify_one();
        ticket
    }

    /// The ticket a read waits for: every write that finished before it.
    pub(crate) fn read(&self) -> u64 {
        self.shared.finished.load(Ordering::SeqCst)
    }

    /// Wait until everything up to `ticket` is on disk.
    pub(crate) async fn wait(&self, ticket: u64) -> Result<(), NotDurable> {
        let mut rx = self.shared.synced.subscribe();
        let state = rx
            .wait_for(|s| matches!(s, Synced::Failed(_)) || reached(s, ticket))
            .await
            .map_err(|_| NotDurable("the flusher stopped".into()))?;
        match &*state {
            Synced::Failed(why) => Err(NotDurable(why.clone())),
            Synced::Upto(_) => Ok(()),
        }
    }

    /// Whether `ticket` is already on disk (no wait needed).
    pub(crate) fn is_durable(&self, ticket: u64) -> bool {
        reached(&self.shared.synced.borrow(), ticket)
    }
}

fn reached(state: &Synced, ticket: u64) -> bool {
    matches!(state, Synced::Upto(n) if *n >= ticket)
}

impl Drop for Durability {
    fn drop(&mut self) {
        {
            let mut wake = self.shared.wake.lock().unwrap_or_else(|p| p.into_inner());
            wake.0 = true;
            self.shared.signal.notify_one();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn flush_loop(shared: &Shared) {
    loop {
        let stop = {
            let mut wake = shared.wake.lock().unwrap_or_else(|p| p.into_inner());
            while !wake.0 && !wake.1 {
                wake = shared.signal.wait(wake).unwrap_or_else(|p| p.into_inner());
            }
            wake.1 = false;
            wake.0
        };
        // Everything that finished before this load is in the log file (the engine wrote it
        // before the request took its ticket); one fsync covers all of it.
        let target = shared.finished.load(Ordering::SeqCst);
        if target > 0 && !reached(&shared.synced.borrow(), target) {
            let state = match sync_file(&shared.wal) {
                Ok(()) => Synced::Upto(target),
                Err(e) => {
                    tracing::error!(wal = %shared.wal.display(), error = %e, "fsync failed; refusing further requests");
                    Synced::Failed(format!("fsync of {} failed: {e}", shared.wal.display()))
                }
            };
            let failed = matches!(state, Synced::Failed(_));
            shared.synced.send_replace(state);
            if failed {
                return;
            }
        }
        if stop {
            return;
        }
    }
}

/// `fsync` the log. It is opened afresh each time (SQLite may create it after the engine opens);
/// when there is none, every commit is already in the database file, which is synced instead.
fn sync_file(wal: &std::path::Path) -> std::io::Result<()> {
    match File::open(wal) {
        Ok(file) => file.sync_all(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let db = wal.with_extension("db");
            File::open(db)?.sync_all()
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_write_is_acknowledged_after_a_flush_and_reads_wait_only_for_pending_writes() {
        let dir = tempfile::tempdir().unwrap();
        let wal = dir.path().join("monotable.db-wal");
        std::fs::write(&wal, b"log").unwrap();
        let d = Durability::start(wal).unwrap();
        assert!(d.is_durable(d.read()), "nothing written: reads do not wait");
        let tickets: Vec<u64> = (0..50).map(|_| d.wrote()).collect();
        for t in &tickets {
            d.wait(*t).await.unwrap();
        }
        assert!(d.is_durable(d.read()));
    }

    #[tokio::test]
    async fn a_failed_flush_refuses_the_write() {
        let dir = tempfile::tempdir().unwrap();
        // Neither the log nor the database file exists: the flush fails.
        let d = Durability::start(dir.path().join("missing").join("monotable.db-wal")).unwrap();
        let ticket = d.wrote();
        let err = d.wait(ticket).await.unwrap_err();
        assert!(
            err.to_string().contains("could not be made durable"),
            "{err}"
        );
    }
}
