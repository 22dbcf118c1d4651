//! Where local delivery keeps its place and its failed records: in the data directory
//! (`consumers/<name>.checkpoint`, written atomically: temp file, fsync, rename, fsync of the
//! directory; `consumers/<name>.failed.jsonl`, one Lambda record per line, appended and
//! synced), or in memory when there is none. File work runs on tokio's blocking pool.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The checkpoint or the failure file could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// A file operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The checkpoint file is not what this crate writes.
    #[error(
        "{path}: not a checkpoint ({why}); move it away to start from the consumer's starting position"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

/// Last delivered sequence number per shard.
pub type Checkpoint = BTreeMap<String, String>;

/// A consumer's checkpoint and failed records.
#[derive(Debug, Clone)]
pub enum Store {
    /// Kept in this process only.
    Memory {
        /// The checkpoint.
        checkpoint: Arc<Mutex<Checkpoint>>,
        /// The failed records' JSON lines.
        failed: Arc<Mutex<Vec<String>>>,
    },
    /// Files in `<data dir>/consumers/`.
    Dir {
        /// `<name>.checkpoint`.
        checkpoint: PathBuf,
        /// `<name>.failed.jsonl`.
        failed: PathBuf,
    },
}

impl Store {
    /// The store of consumer `name`: in `data_dir` when given, else in memory.
    pub fn new(data_dir: Option<&Path>, name: &str) -> Store {
        match data_dir {
            None => Store::Memory {
                checkpoint: Arc::default(),
                failed: Arc::default(),
            },
            Some(dir) => {
                let dir = dir.join("consumers");
                Store::Dir {
                    checkpoint: dir.join(format!("{name}.checkpoint")),
                    failed: dir.join(format!("{name}.failed.jsonl")),
                }
            }
        }
    }

    /// The checkpoint as last written (empty when none was).
    pub async fn load(&self) -> Result<Checkpoint, CheckpointError> {
        match self {
            Store::Memory { checkpoint, .. } => Ok(lock(checkpoint).clone()),
            Store::Dir { checkpoint, .. } => {
                let path = checkpoint.clone();
                blocking(move || read_checkpoint(&path)).await
            }
        }
    }

    /// Replace the checkpoint (atomically on disk).
    pub async fn save(&self, value: &Checkpoint) -> Result<(), CheckpointError> {
        match self {
            Store::Memory { checkpoint, .. } => {
                *lock(checkpoint) = value.clone();
                Ok(())
            }
            Store::Dir { checkpoint, .. } => {
                let (path, value) = (checkpoint.clone(), value.clone());
                blocking(move || write_checkpoint(&path, &value)).await
            }
        }
    }

    /// Append failed records, one JSON line each (synced on disk).
    pub async fn fail(&self, lines: Vec<String>) -> Result<(), CheckpointError> {
        match self {
            Store::Memory { failed, .. } => {
                lock(failed).extend(lines);
                Ok(())
            }
            Store::Dir { failed, .. } => {
                let path = failed.clone();
                blocking(move || append(&path, &lines)).await
            }
        }
    }

    /// Every failed record's JSON line so far.
    pub async fn failed(&self) -> Result<Vec<String>, CheckpointError> {
        match self {
            Store::Memory { failed, .. } => Ok(lock(failed).clone()),
            Store::Dir { failed, .. } => {
                let path = failed.clone();
                blocking(move || match std::fs::read_to_string(&path) {
                    Ok(text) => Ok(text.lines().map(str::to_string).collect()),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
                    Err(source) => Err(CheckpointError::Io { path, source }),
                })
                .await
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CheckpointError> + Send + 'static,
) -> Result<T, CheckpointError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(CheckpointError::Io {
            path: PathBuf::new(),
            source: std::io::Error::other(e.to_string()),
        })
    })
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn read_checkpoint(path: &Path) -> Result<Checkpoint, CheckpointError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Checkpoint::new()),
        Err(e) => return Err(io(path)(e)),
    };
    let corrupt = |why: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        why,
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
    let shards = value
        .get("shards")
        .and_then(|s| s.as_object())
        .ok_or_else(|| corrupt("no `shards` object".into()))?;
    shards
        .iter()
        .map(|(shard, seq)| match seq.as_str() {
            Some(seq) => Ok((shard.clone(), seq.to_string())),
            None => Err(corrupt(format!("shard `{shard}` has no sequence number"))),
        })
        .collect()
}

fn create_dir(dir: &Path) -> Result<(), CheckpointError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(io(dir))
}

fn open_options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
}

fn write_checkpoint(path: &Path, value: &Checkpoint) -> Result<(), CheckpointError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_dir(dir)?;
    let text = serde_json::json!({ "shards": value }).to_string();
    let temp = path.with_extension("checkpoint.tmp");
    let mut file = open_options()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)
        .map_err(io(&temp))?;
    file.write_all(text.as_bytes()).map_err(io(&temp))?;
    file.sync_all().map_err(io(&temp))?;
    std::fs::rename(&temp, path).map_err(io(path))?;
    // The rename is durable once the directory is.
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io(dir))
}

fn append(path: &Path, lines: &[String]) -> Result<(), CheckpointError> {
    create_dir(path.parent().unwrap_or(Path::new(".")))?;
    let mut file = open_options()
        .append(true)
        .create(true)
        .open(path)
        .map_err(io(path))?;
    for line in lines {
        writeln!(file, "{line}").map_err(io(path))?;
    }
    file.sync_all().map_err(io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_checkpoint_survives_a_new_store_on_the_same_directory() {
        let dir = tempfile_dir();
        let store = Store::new(Some(&dir), "sales");
        assert!(store.load().await.unwrap().is_empty());
        let mut value = Checkpoint::new();
        value.insert("shard-1".into(), "000042".into());
        store.save(&value).await.unwrap();
        let again = Store::new(Some(&dir), "sales");
        assert_eq!(again.load().await.unwrap(), value);
        again
            .fail(vec!["{}".into(), "{\"a\":1}".into()])
            .await
            .unwrap();
        assert_eq!(store.failed().await.unwrap().len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn a_foreign_checkpoint_file_is_refused_not_ignored() {
        let dir = tempfile_dir();
        let store = Store::new(Some(&dir), "sales");
        std::fs::create_dir_all(dir.join("consumers")).unwrap();
        std::fs::write(dir.join("consumers/sales.checkpoint"), "[1]").unwrap();
        let err = store.load().await.unwrap_err();
        assert!(matches!(err, CheckpointError::Corrupt { .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "monotable-checkpoint-{}-{}",
            std::process::id(),
            fastrand_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn fastrand_suffix() -> u64 {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }
}
