//! The embedded engine: a dynoxide database in memory or in a data directory, held by one process
//! at a time, watched for its file being deleted or replaced, and made durable by group commit.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use dynoxide::Database;

#[cfg(feature = "capacity")]
use crate::capacity::{Emulator, Settings};
use crate::config::{DataLocation, LOCK_FILE};
use crate::durability::{Durability, NotDurable};
use crate::error::OpenError;

/// The engine's wall clock set by hand (dynoxide's): the time its stream records are stamped
/// with, and its TTL reads. A test or bench moves it to age records past the stream's retention
/// without waiting ([`Engine::memory_with_clock`]); clones share the time.
pub use dynoxide::storage_backend::ManualClock;

/// The embedded DynamoDB-compatible engine. Cloning is cheap and shares the database.
#[derive(Clone)]
pub struct Engine {
    db: Database,
    location: DataLocation,
    disk: Option<Arc<Disk>>,
    /// Capacity emulation, when on ([`Engine::with_capacity`]).
    #[cfg(feature = "capacity")]
    capacity: Option<Arc<Emulator>>,
}

/// What a file-backed engine keeps beside the database: the directory lock, the identity of its
/// files, and the group-commit flusher.
struct Disk {
    /// Held (exclusively locked) for the engine's lifetime; released when the file closes.
    _lock: fs::File,
    /// The database file, then its write-ahead log.
    files: [FileIdentity; 2],
    durability: Durability,
    /// Set once a file went missing or was replaced: every later request is refused.
    lost: AtomicBool,
}

/// A file and the (device, inode) it had when the engine opened it.
struct FileIdentity {
    path: PathBuf,
    id: Option<(u64, u64)>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

/// Why the engine refuses a request.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Unavailable {
    /// The database file was deleted or replaced while this process had it open.
    #[error(
        "the database file {} was deleted or replaced while monotable was running; \
         nothing more is accepted, because it would be lost on restart. Restart monotable",
        path.display()
    )]
    FileLost {
        /// The file.
        path: PathBuf,
    },
    /// The disk did not confirm a write.
    #[error("{0}")]
    NotDurable(String),
}

impl Engine {
    /// Open the engine at `location`: create the data directory if needed, take its lock, check
    /// that it and the database file can be written, and open (or create) the database.
    pub fn open(location: &DataLocation) -> Result<Engine, OpenError> {
        let (db, disk) = match location {
            DataLocation::Memory => (Database::memory().map_err(memory_error)?, None),
            DataLocation::Dir(dir) => {
                let (db, disk) = open_dir(dir)?;
                (db, Some(Arc::new(disk)))
            }
        };
        Ok(Engine {
            db,
            location: location.clone(),
            disk,
            #[cfg(feature = "capacity")]
            capacity: None,
        })
    }

    /// A fresh in-memory engine, for tests.
    pub fn memory() -> Result<Engine, OpenError> {
        Engine::open(&DataLocation::Memory)
    }

    /// A fresh in-memory engine whose stream records and TTL read the time from `clock`, for
    /// tests and benches of what happens as records age.
    pub fn memory_with_clock(clock: &ManualClock) -> Result<Engine, OpenError> {
        Ok(Engine {
            db: Database::memory_with_clock(clock.arc()).map_err(memory_error)?,
            location: DataLocation::Memory,
            disk: None,
            #[cfg(feature = "capacity")]
            capacity: None,
        })
    }

    /// This engine with DynamoDB's throughput rules applied to every data-plane request
    /// ([`crate::capacity`]). The returned engine shares the data with `self`; requests through
    /// `self` (or its other clones) stay unmetered, so data can be loaded before the clock
    /// starts. Needs the `capacity` feature.
    #[cfg(feature = "capacity")]
    pub fn with_capacity(mut self, settings: Settings) -> Engine {
        self.capacity = Some(Arc::new(Emulator::new(settings)));
        self
    }

    /// The capacity emulator, when it is on.
    #[cfg(feature = "capacity")]
    pub fn capacity(&self) -> Option<&Arc<Emulator>> {
        self.capacity.as_ref()
    }

    /// Where the data lives.
    pub fn location(&self) -> &DataLocation {
        &self.location
    }

    /// The engine's own database handle, for [`crate::dispatch`] and [`crate::direct`] only.
    /// Everything else sends DynamoDB's JSON through [`crate::dispatch::run`] or an SDK client
    /// ([`crate::inprocess::client`]).
    pub(crate) fn database(&self) -> &Database {
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
        result.map_err(|e| self.setting_error(&e))
    }

    /// A setting the engine refused, naming its database.
    fn setting_error(&self, e: &dynoxide::DynoxideError) -> OpenError {
        OpenError::Engine {
            path: self
                .location
                .database_file()
                .unwrap_or_else(|| PathBuf::from(":memory:")),
            message: e.to_string(),
        }
    }

    /// Whether the data lives in a file (so calls do disk I/O).
    pub fn is_file_backed(&self) -> bool {
        self.disk.is_some()
    }

    /// Refuse service when the database file went missing or was replaced under this process.
    /// In memory there is nothing to check.
    pub(crate) fn check_files(&self) -> Result<(), Unavailable> {
        let Some(disk) = &self.disk else {
            return Ok(());
        };
        let lost = |path: &Path| Unavailable::FileLost {
            path: path.to_path_buf(),
        };
        if disk.lost.load(Ordering::Relaxed) {
            let [database, _log] = &disk.files;
            return Err(lost(&database.path));
        }
        for file in &disk.files {
            if file.id.is_some() && identity(&file.path) != file.id {
                disk.lost.store(true, Ordering::Relaxed);
                tracing::error!(file = %file.path.display(), "database file deleted or replaced; refusing every request");
                return Err(lost(&file.path));
            }
        }
        Ok(())
    }

    /// The durability ticket of a request that just ran: writes take a new one, reads wait for
    /// the writes before them. `None` when there is nothing to wait for.
    pub(crate) fn ticket(&self, wrote: bool) -> Option<u64> {
        let disk = self.disk.as_ref()?;
        let ticket = if wrote {
            disk.durability.wrote()
        } else {
            disk.durability.read()
        };
        (!disk.durability.is_durable(ticket)).then_some(ticket)
    }

    /// Wait until `ticket` is on disk.
    pub(crate) async fn durable(&self, ticket: u64) -> Result<(), Unavailable> {
        match &self.disk {
            Some(disk) => disk
                .durability
                .wait(ticket)
                .await
                .map_err(|NotDurable(why)| Unavailable::NotDurable(why)),
            None => Ok(()),
        }
    }
}

fn memory_error(e: dynoxide::DynoxideError) -> OpenError {
    OpenError::Engine {
        path: PathBuf::from(":memory:"),
        message: e.to_string(),
    }
}

fn open_dir(dir: &Path) -> Result<(Database, Disk), OpenError> {
    crate::private::create_dir(dir).map_err(|source| OpenError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    check_writable(dir)?;
    let lock = lock_dir(dir)?;
    crate::private::tighten_dir(dir);
    let file = dir.join(crate::config::DATABASE_FILE);
    check_database_writable(&file)?;
    create_database_file(&file)?;
    let path = file.to_str().ok_or_else(|| OpenError::NonUtf8Path {
        path: dir.to_path_buf(),
    })?;
    let engine_error = |e: dynoxide::DynoxideError| OpenError::Engine {
        path: file.clone(),
        message: e.to_string(),
    };
    let db = Database::new(path).map_err(engine_error)?;
    // Commits reach the log without waiting for the disk; the flusher makes them durable.
    db.disable_bulk_loading().map_err(engine_error)?;
    let wal = dir.join(format!("{}-wal", crate::config::DATABASE_FILE));
    let durability = Durability::start(wal.clone()).map_err(|source| OpenError::NotWritable {
        path: dir.to_path_buf(),
        source,
    })?;
    let files = [file, wal].map(|path| FileIdentity {
        id: identity(&path),
        path,
    });
    let disk = Disk {
        _lock: lock,
        files,
        durability,
        lost: AtomicBool::new(false),
    };
    Ok((db, disk))
}

/// Create the database file, empty and 0600, before SQLite opens it: SQLite creates its own
/// files with 0644 (less the umask) and gives its log and shared-memory files the database
/// file's mode, so this one decides all three. An empty file is an empty database to SQLite.
fn create_database_file(file: &Path) -> Result<(), OpenError> {
    match crate::private::file_options().create_new(true).open(file) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(source) => Err(OpenError::NotWritable {
            path: file.to_path_buf(),
            source,
        }),
    }
}

/// (device, inode) of a file, `None` when it does not exist (or off Unix).
fn identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// How this process is named in the lock files of the data directories it opens; see
/// [`name_process`].
static PROCESS_NAME: OnceLock<String> = OnceLock::new();

/// Name this process in the lock file of every data directory it opens, beside its pid: a
/// second process that finds the directory taken says who has it (`pid 4242 (monotable
/// serve)`). The name should say what the program is doing, and hold no secret: it is written
/// to disk and printed. Only the first call counts. Without one, the program's file name is
/// used. The command line is never written: its arguments may carry secrets (`--auth`).
pub fn name_process(name: &str) {
    let _ = PROCESS_NAME.set(printable(name));
}

fn process_name() -> String {
    PROCESS_NAME
        .get()
        .cloned()
        .or_else(|| {
            let program = std::env::args_os().next()?;
            let name = Path::new(&program)
                .file_name()?
                .to_string_lossy()
                .into_owned();
            Some(printable(&name))
        })
        .unwrap_or_else(|| "a program".to_string())
}

/// At most 64 printable characters of `text`, each run of anything else one space.
fn printable(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_graphic() || c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().chars().take(64).collect()
}

/// Take the directory's lock, or name the process that holds it. The lock file is 0600 and
/// holds this process's pid and name ([`name_process`]), nothing else.
fn lock_dir(dir: &Path) -> Result<fs::File, OpenError> {
    let path = dir.join(LOCK_FILE);
    let not_writable = |source| OpenError::NotWritable {
        path: dir.to_path_buf(),
        source,
    };
    let mut file = crate::private::file_options()
        .read(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(not_writable)?;
    // An older version wrote the holder's whole command line here, readable by everyone.
    crate::private::tighten(&path);
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            let holder = fs::read_to_string(&path).unwrap_or_default();
            return Err(OpenError::Locked {
                path: dir.to_path_buf(),
                holder: describe_holder(&holder),
            });
        }
        Err(fs::TryLockError::Error(source)) => return Err(not_writable(source)),
    }
    let me = format!("pid {}\nprocess {}\n", std::process::id(), process_name());
    file.set_len(0)
        .and_then(|()| file.write_all(me.as_bytes()))
        .map_err(not_writable)?;
    Ok(file)
}

/// "pid 123 (monotable serve)" from the lock file's text. Only the pid and the process's name
/// are read: a `command` line an older version wrote (the whole command line, secrets and all)
/// is never repeated.
fn describe_holder(text: &str) -> String {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name).map(printable))
            .filter(|v| !v.is_empty())
    };
    let pid = field("pid ").filter(|p| p.bytes().all(|b| b.is_ascii_digit()));
    match (pid, field("process ")) {
        (Some(pid), Some(name)) => format!("pid {pid} ({name})"),
        (Some(pid), None) => format!("pid {pid}"),
        _ => "another process".to_string(),
    }
}

/// Write and remove a probe file, so an unwritable directory is named before SQLite reports it
/// in its own words (or, worse, opens read-only).
fn check_writable(dir: &Path) -> Result<(), OpenError> {
    let probe = dir.join(format!(
        "{}{}",
        crate::private::PROBE_PREFIX,
        std::process::id()
    ));
    let result = crate::private::file_options()
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

/// An existing database file must be writable: marked read-only, or refused for writing, it would
/// open, say "ready", and then fail every write.
fn check_database_writable(file: &Path) -> Result<(), OpenError> {
    let metadata = match fs::metadata(file) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(OpenError::NotWritable {
                path: file.to_path_buf(),
                source,
            });
        }
    };
    let refused = |source| OpenError::ReadOnlyDatabase {
        path: file.to_path_buf(),
        source,
    };
    if metadata.permissions().readonly() {
        return Err(refused(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is marked read-only",
        )));
    }
    fs::OpenOptions::new()
        .write(true)
        .open(file)
        .map(drop)
        .map_err(refused)
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

    #[test]
    fn a_second_opener_of_a_directory_is_refused_and_told_who_holds_it() {
        let tmp = tempfile::tempdir().unwrap();
        let location = DataLocation::Dir(tmp.path().join("data"));
        let first = Engine::open(&location).unwrap();
        let err = Engine::open(&location).unwrap_err();
        assert!(matches!(err, OpenError::Locked { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains(&format!("pid {}", std::process::id())),
            "{text}"
        );
        drop(first);
        Engine::open(&location).expect("the lock is released with the engine");
    }

    #[test]
    fn a_read_only_database_file_is_refused_at_open() {
        let tmp = tempfile::tempdir().unwrap();
        let location = DataLocation::Dir(tmp.path().join("data"));
        drop(Engine::open(&location).unwrap());
        let file = location.database_file().unwrap();
        let mut perms = fs::metadata(&file).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(&file, perms).unwrap();
        let err = Engine::open(&location).unwrap_err();
        assert!(matches!(err, OpenError::ReadOnlyDatabase { .. }), "{err:?}");
        assert!(err.to_string().contains("read-only"), "{err}");
    }

    #[test]
    fn a_deleted_database_file_is_noticed() {
        let tmp = tempfile::tempdir().unwrap();
        let location = DataLocation::Dir(tmp.path().join("data"));
        let engine = Engine::open(&location).unwrap();
        engine.check_files().unwrap();
        fs::remove_file(location.database_file().unwrap()).unwrap();
        let err = engine.check_files().unwrap_err();
        assert!(err.to_string().contains("deleted or replaced"), "{err}");
        // Even if a file reappears at the path, the engine stays refused.
        fs::write(location.database_file().unwrap(), b"").unwrap();
        assert!(engine.check_files().is_err());
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[cfg(unix)]
    fn set_mode(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    /// The database's files, the lock file, and the directory.
    #[cfg(unix)]
    fn modes(dir: &Path) -> Vec<(String, u32)> {
        let mut found = vec![(".".to_string(), mode(dir))];
        for name in [
            "monotable.db",
            "monotable.db-wal",
            "monotable.db-shm",
            LOCK_FILE,
        ] {
            found.push((name.to_string(), mode(&dir.join(name))));
        }
        found
    }

    #[cfg(unix)]
    #[test]
    fn a_new_data_directory_and_its_files_are_private_to_the_user() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data");
        let engine = Engine::open(&DataLocation::Dir(dir.clone())).unwrap();
        // SQLite gives its log and shared-memory files the database file's mode.
        let expected = [
            (".", 0o700),
            ("monotable.db", 0o600),
            ("monotable.db-wal", 0o600),
            ("monotable.db-shm", 0o600),
            (LOCK_FILE, 0o600),
        ]
        .map(|(n, m)| (n.to_string(), m));
        assert_eq!(modes(&dir), expected);
        drop(engine);
        // No probe file is left behind.
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.contains("probe")), "{names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn looser_modes_an_older_version_left_are_tightened_on_open() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data");
        let location = DataLocation::Dir(dir.clone());
        let engine = Engine::open(&location).unwrap();
        for name in [
            "monotable.db",
            "monotable.db-wal",
            "monotable.db-shm",
            LOCK_FILE,
        ] {
            set_mode(&dir.join(name), 0o644);
        }
        drop(engine);
        set_mode(&dir, 0o755);
        let engine = Engine::open(&location).unwrap();
        assert!(
            modes(&dir)
                .iter()
                .all(|(name, m)| *m == if name == "." { 0o700 } else { 0o600 }),
            "{:?}",
            modes(&dir)
                .iter()
                .map(|(n, m)| format!("{n} {m:o}"))
                .collect::<Vec<_>>()
        );
        drop(engine);
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_holding_files_not_monotables_keeps_its_mode_but_not_its_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("project");
        fs::create_dir(&dir).unwrap();
        set_mode(&dir, 0o755);
        fs::write(dir.join("notes.txt"), b"mine").unwrap();
        set_mode(&dir.join("notes.txt"), 0o644);
        let engine = Engine::open(&DataLocation::Dir(dir.clone())).unwrap();
        assert_eq!(mode(&dir), 0o755);
        assert_eq!(mode(&dir.join("notes.txt")), 0o644);
        assert_eq!(mode(&dir.join("monotable.db")), 0o600);
        assert_eq!(mode(&dir.join(LOCK_FILE)), 0o600);
        drop(engine);
    }

    #[test]
    fn the_lock_file_names_the_process_never_its_arguments() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data");
        let engine = Engine::open(&DataLocation::Dir(dir.clone())).unwrap();
        let text = fs::read_to_string(dir.join(LOCK_FILE)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0], format!("pid {}", std::process::id()));
        assert!(lines[1].starts_with("process "), "{text}");
        // The test harness's own arguments (a filter, --nocapture...) are not written.
        for arg in std::env::args().skip(1) {
            assert!(!lines[1].contains(&arg), "{arg} in {text}");
        }
        drop(engine);
    }

    #[test]
    fn a_command_line_an_older_version_wrote_is_never_repeated() {
        let old = "pid 42\ncommand monotable serve --auth local:s3cr3t-s3cr3t\n";
        assert_eq!(describe_holder(old), "pid 42");
        assert_eq!(
            describe_holder("pid 42\nprocess monotable serve\n"),
            "pid 42 (monotable serve)"
        );
        // Whatever the file holds, only printable text of a bounded length comes out.
        let odd = format!("pid 7\nprocess x\u{1b}[2J{}\n", "y".repeat(500));
        let described = describe_holder(&odd);
        assert!(!described.contains('\u{1b}'), "{described}");
        assert!(described.len() < 120, "{described}");
        assert_eq!(describe_holder("pid 1; rm -rf\n"), "another process");
    }

    #[test]
    fn holders_are_described_from_the_lock_file() {
        assert_eq!(describe_holder("pid 42\n"), "pid 42");
        assert_eq!(describe_holder(""), "another process");
    }
}
