//! The way in: the root every `path` is read under (canonical, so `..` and links that leave it
//! are refused), each file read through `take(MAX_MODEL_BYTES + 1)` so a large file or a device
//! is never held whole, and a tool's model as text or as a file.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::McpError;

/// The most bytes a model may hold, as text or as a file (1 MiB). Larger inputs are refused
/// with this limit named.
pub const MAX_MODEL_BYTES: usize = 1 << 20;

/// The directory every `path` is read under, canonical.
#[derive(Debug, Clone)]
pub struct Root(PathBuf);

impl Root {
    /// `dir` made canonical; an error when it is not a directory.
    pub fn new(dir: &Path) -> Result<Root, McpError> {
        let root_error = |reason: String| McpError::Root {
            path: dir.to_path_buf(),
            reason,
        };
        let canonical = dir.canonicalize().map_err(|e| root_error(e.to_string()))?;
        if !canonical.is_dir() {
            return Err(root_error("not a directory".into()));
        }
        Ok(Root(canonical))
    }

    /// The root's canonical path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The file `relative` names under the root, refused when it is absolute, climbs with `..`,
    /// or resolves (through links) outside the root.
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, McpError> {
        let outside = || McpError::OutsideRoot(relative.to_string());
        let given = Path::new(relative);
        let plain = given
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if relative.is_empty() || !plain {
            return Err(outside());
        }
        let joined = self.0.join(given);
        let canonical = joined.canonicalize().map_err(|e| McpError::Unreadable {
            path: relative.to_string(),
            reason: e.to_string(),
        })?;
        if !canonical.starts_with(&self.0) {
            return Err(outside());
        }
        Ok(canonical)
    }

    /// The text of the file `relative` names under the root, at most [`MAX_MODEL_BYTES`].
    pub fn read(&self, relative: &str) -> Result<String, McpError> {
        let file = self.resolve(relative)?;
        let unreadable = |reason: String| McpError::Unreadable {
            path: relative.to_string(),
            reason,
        };
        if !file.is_file() {
            return Err(unreadable("not a regular file".into()));
        }
        let opened = std::fs::File::open(&file).map_err(|e| unreadable(e.to_string()))?;
        let cap = u64::try_from(MAX_MODEL_BYTES)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let mut bytes = Vec::new();
        opened
            .take(cap)
            .read_to_end(&mut bytes)
            .map_err(|e| unreadable(e.to_string()))?;
        within_limit(&format!("file `{relative}`"), bytes.len())?;
        String::from_utf8(bytes).map_err(|_| unreadable("not UTF-8 text".into()))
    }
}

/// `size` bytes of `what`, refused over [`MAX_MODEL_BYTES`].
pub fn within_limit(what: &str, size: usize) -> Result<(), McpError> {
    if size > MAX_MODEL_BYTES {
        return Err(McpError::TooLarge {
            what: what.to_string(),
            size,
            limit: MAX_MODEL_BYTES,
        });
    }
    Ok(())
}

/// A model, as text or as a file under the root: exactly one of the two.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct ModelSource {
    /// The model file's text (TOML, docs/model.md), at most 1 MiB.
    #[serde(default)]
    pub model: Option<String>,
    /// A model file, relative to the server's root (no `..`, no links leaving the root), at
    /// most 1 MiB.
    #[serde(default)]
    pub path: Option<String>,
}

/// The name a model given as text goes by in diagnostics.
pub const TEXT_NAME: &str = "<model>";

/// A model's name (its path, or [`TEXT_NAME`]) and text.
#[derive(Debug)]
pub struct Loaded {
    pub name: String,
    pub source: String,
}

/// The model `text` or `path` names: exactly one of them, within the limit.
pub fn load(
    root: &Root,
    text: Option<&str>,
    path: Option<&str>,
    names: (&'static str, &'static str),
) -> Result<Loaded, McpError> {
    match (text, path) {
        (Some(text), None) => {
            within_limit(&format!("`{}`", names.0), text.len())?;
            Ok(Loaded {
                name: TEXT_NAME.to_string(),
                source: text.to_string(),
            })
        }
        (None, Some(path)) => Ok(Loaded {
            name: path.to_string(),
            source: root.read(path)?,
        }),
        (given_text, _) => Err(McpError::Source {
            text: names.0,
            path: names.1,
            given: if given_text.is_some() {
                "both"
            } else {
                "neither"
            },
        }),
    }
}

impl ModelSource {
    /// The model this source names.
    pub fn load(&self, root: &Root) -> Result<Loaded, McpError> {
        load(
            root,
            self.model.as_deref(),
            self.path.as_deref(),
            ("model", "path"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_root_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.toml"), "x").unwrap();
        let root = Root::new(dir.path()).unwrap();
        assert!(root.resolve("m.toml").is_ok());
        assert!(root.resolve("./m.toml").is_ok());
        for bad in ["../m.toml", "/etc/passwd", "a/../../m.toml", ""] {
            assert!(
                matches!(root.resolve(bad), Err(McpError::OutsideRoot(_))),
                "{bad}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_that_leave_the_root_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.toml"), "x").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.toml"),
            dir.path().join("l.toml"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("d")).unwrap();
        let root = Root::new(dir.path()).unwrap();
        assert!(matches!(
            root.resolve("l.toml"),
            Err(McpError::OutsideRoot(_))
        ));
        assert!(matches!(
            root.read("d/secret.toml"),
            Err(McpError::OutsideRoot(_))
        ));
    }

    #[test]
    fn files_and_text_over_the_limit_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let big = "#".repeat(MAX_MODEL_BYTES + 1);
        std::fs::write(dir.path().join("big.toml"), &big).unwrap();
        let root = Root::new(dir.path()).unwrap();
        assert!(matches!(
            root.read("big.toml"),
            Err(McpError::TooLarge { .. })
        ));
        let text = ModelSource {
            model: Some(big),
            path: None,
        };
        assert!(matches!(text.load(&root), Err(McpError::TooLarge { .. })));
        let neither = ModelSource::default();
        assert!(matches!(neither.load(&root), Err(McpError::Source { .. })));
    }
}
