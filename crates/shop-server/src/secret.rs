//! The local signing secret for tokens and cursors: `MONOTABLE_JWT_SECRET`, or one generated
//! into the data directory on first use (`jwt-secret`, 0600 in a 0700 directory, as
//! `monotable_connect::private` makes every file of a data directory).

use std::fs;
use std::io::Write;

use anyhow::{Context, bail};
use monotable_connect::DataLocation;
use monotable_connect::config::SECRET_FILE;
use monotable_connect::private;

/// The environment variable that overrides the generated secret.
pub const SECRET_ENV: &str = "MONOTABLE_JWT_SECRET";
/// Shortest secret accepted.
pub const MIN_SECRET_LEN: usize = 16;

/// Where the secret came from, for the banner.
pub enum Source {
    Env,
    File(std::path::PathBuf),
    Ephemeral,
}

/// The secret for `location`: the environment first, then the data directory's file (created if
/// missing). In memory, a fresh secret per process.
pub fn load(location: &DataLocation) -> anyhow::Result<(Vec<u8>, Source)> {
    if let Ok(secret) = std::env::var(SECRET_ENV) {
        if secret.len() < MIN_SECRET_LEN {
            bail!("{SECRET_ENV} must be at least {MIN_SECRET_LEN} characters");
        }
        return Ok((secret.into_bytes(), Source::Env));
    }
    let Some(dir) = location.dir() else {
        return Ok((generate()?.into_bytes(), Source::Ephemeral));
    };
    let path = dir.join(SECRET_FILE);
    // An older copy, or one written by hand, may be readable by others.
    private::tighten(&path);
    match fs::read_to_string(&path) {
        Ok(secret) if secret.trim().len() >= MIN_SECRET_LEN => {
            return Ok((secret.trim().as_bytes().to_vec(), Source::File(path)));
        }
        Ok(_) => bail!(
            "{} holds no usable secret; delete it to generate a new one",
            path.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
    private::create_dir(dir)
        .with_context(|| format!("cannot create data directory {}", dir.display()))?;
    let secret = generate()?;
    match private::file_options().create_new(true).open(&path) {
        Ok(mut file) => {
            file.write_all(secret.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok((secret.into_bytes(), Source::File(path)))
        }
        // Another process created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => load(location),
        Err(e) => Err(e).with_context(|| format!("cannot create {}", path.display())),
    }
}

fn generate() -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no system randomness: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_secret_is_kept_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let location = DataLocation::Dir(dir.path().join("data"));
        let (first, _) = load(&location).unwrap();
        let (second, source) = load(&location).unwrap();
        assert_eq!(first, second);
        assert_eq!(first.len(), 64);
        assert!(matches!(source, Source::File(_)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("data").join(SECRET_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "the secret is readable by its owner only");
        }
    }
}
