//! The embedded engine: a dynoxide database in memory or in a data directory.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use dynoxide::Database;

use crate::config::DataLocation;
use crate::error::OpenError;

/// The embedded DynamoDB-compatible engine. Cloning is cheap and shares the database.
#[derive(Clone)]
pub struct Engine {
    db: Database,
    location: DataLocation,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Open the engine at `location`: create the data directory if needed, check that it can be
    /// written, and open (or create) its database file.
    pub fn open(location: &DataLocation) -> Result<Engine, OpenError> {
        let db = match location {
            DataLocation::Memory => Database::memory().map_err(|e| OpenError::Engine {
                path: PathBuf::from(":memory:"),
                message: e.to_string(),
            })?,
            DataLocation::Dir(dir) => open_dir(dir)?,
        };
        Ok(Engine {
            db,
            location: location.clone(),
        })
    }

    /// A fresh in-memory engine, for tests.
    pub fn memory() -> Result<Engine, OpenError> {
        Engine::open(&DataLocation::Memory)
    }

    /// Where the data lives.
    pub fn location(&self) -> &DataLocation {
        &self.location
    }

    /// The engine's own database handle, for the store crate's connector and server and for
    /// benchmarks that measure the SDK stack against direct engine calls. Application code goes
    /// through [`Engine::client`].
    #[doc(hidden)]
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Trade durability for speed during a bulk load (SQLite `synchronous = OFF`, a 64 MB cache,
    /// memory-mapped I/O) and back. A crash while it is on can lose the load; the data that was
    /// there before stays intact. Only the embedded engine has this switch: it configures the
    /// engine, while every item still goes through the SDK.
    pub fn set_bulk_loading(&self, on: bool) -> Result<(), OpenError> {
        let result = if on {
            self.db.enable_bulk_loading()
        } else {
            self.db.disable_bulk_loading()
        };
        result.map_err(|e| OpenError::Engine {
            path: self
                .location
                .database_file()
                .unwrap_or_else(|| PathBuf::from(":memory:")),
            message: e.to_string(),
        })
    }

    /// An SDK client whose requests this engine answers in-process.
    pub fn client(&self) -> aws_sdk_dynamodb::Client {
        crate::inprocess::client(self.clone())
    }
}

fn open_dir(dir: &Path) -> Result<Database, OpenError> {
    fs::create_dir_all(dir).map_err(|source| OpenError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    check_writable(dir)?;
    let file = dir.join(crate::config::DATABASE_FILE);
    let path = file.to_str().ok_or_else(|| OpenError::NonUtf8Path {
        path: dir.to_path_buf(),
    })?;
    Database::new(path).map_err(|e| OpenError::Engine {
        path: file.clone(),
        message: e.to_string(),
    })
}

/// Write and remove a probe file, so an unwritable directory is named before SQLite reports it
/// in its own words (or, worse, opens read-only).
fn check_writable(dir: &Path) -> Result<(), OpenError> {
    let probe = dir.join(format!(".monotable-write-probe-{}", std::process::id()));
    let result = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
        .and_then(|mut f| f.write_all(b"ok"));
    let _ = fs::remove_file(&probe);
    result.map_err(|source| OpenError::NotWritable {
        path: dir.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_where_the_directory_should_be_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("not-a-dir");
        fs::write(&file, b"x").unwrap();
        let err = Engine::open(&DataLocation::Dir(file.join("data"))).unwrap_err();
        assert!(matches!(err, OpenError::CreateDir { .. }), "{err:?}");
        assert!(err.to_string().starts_with("cannot create data directory"));
    }

    #[test]
    fn open_creates_the_directory_and_database_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("nested").join("data");
        let engine = Engine::open(&DataLocation::Dir(dir.clone())).unwrap();
        assert!(dir.join(crate::config::DATABASE_FILE).exists());
        assert_eq!(engine.location(), &DataLocation::Dir(dir));
    }
}
