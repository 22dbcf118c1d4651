//! Reading the files a command is given, each capped at a stated size: read through
//! `take(limit + 1)`, so a file over the limit, `/dev/zero` or a pipe that never ends is refused
//! with the limit named instead of being held in memory.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// What a file is, and the most bytes it may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// What the file is, for messages: "model", "price table".
    pub what: &'static str,
    /// The most bytes it may hold.
    pub bytes: usize,
}

impl Limit {
    /// One byte more than the limit: reading that many tells a file at the limit from one past it.
    pub fn read_at_most(self) -> u64 {
        u64::try_from(self.bytes)
            .unwrap_or(u64::MAX)
            .saturating_add(1)
    }
}

/// A model file (also a `--traffic` file, which may be a whole model).
pub const MODEL: Limit = Limit {
    what: "model",
    bytes: monotable_model::limits::MAX_SOURCE_BYTES,
};

/// A `--prices` price table.
pub const PRICES: Limit = Limit {
    what: "price table",
    bytes: 1 << 20,
};

/// An OpenAPI document (`export --routes-from`).
pub const OPENAPI: Limit = Limit {
    what: "OpenAPI document",
    bytes: 16 << 20,
};

/// A NoSQL Workbench data model, read as a stream (its sample items are skipped, not held).
pub const WORKBENCH: Limit = Limit {
    what: "NoSQL Workbench file",
    bytes: 256 << 20,
};

/// The AWS DynamoDB MCP server's data model (`import --from aws-mcp`), read whole.
pub const AWS_MCP: Limit = Limit {
    what: "JSON data model of the AWS MCP server",
    bytes: monotable_export::aws_mcp::MAX_AWS_MCP_BYTES,
};

/// A file that could not be read whole.
#[derive(Debug)]
pub enum ReadError {
    /// Opening or reading failed.
    Io(std::io::Error),
    /// More bytes than the limit.
    TooLarge(Limit),
    /// Not UTF-8 text.
    NotUtf8,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge(limit) => write!(
                f,
                "it is larger than {}, the most a {} may hold",
                size(limit.bytes),
                limit.what
            ),
            ReadError::NotUtf8 => write!(f, "stream did not contain valid UTF-8"),
        }
    }
}

impl std::error::Error for ReadError {}

/// `16 MiB (16,777,216 bytes)`.
pub fn size(bytes: usize) -> String {
    let grouped = monotable_model::limits::thousands(bytes);
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB ({grouped} bytes)", bytes >> 20)
    } else {
        format!("{grouped} bytes")
    }
}

/// Opens `path` for reading, at most `limit.bytes + 1` bytes of it.
pub fn open(path: &Path, limit: Limit) -> Result<std::io::Take<std::fs::File>, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "Is a directory",
        )));
    }
    Ok(file.take(limit.read_at_most()))
}

/// A reader that fails, naming the limit, once more than `limit.bytes` have been read: for a
/// file read as a stream rather than whole.
pub struct Capped<R> {
    inner: R,
    left: usize,
    limit: Limit,
}

impl<R: Read> Capped<R> {
    pub fn new(inner: R, limit: Limit) -> Self {
        Self {
            inner,
            left: limit.bytes,
            limit,
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self
            .left
            .checked_sub(n)
            .ok_or_else(|| std::io::Error::other(ReadError::TooLarge(self.limit)))?;
        Ok(n)
    }
}

/// The text of `path`, refused past `limit`.
pub fn read(path: &Path, limit: Limit) -> Result<String, ReadError> {
    read_from(open(path, limit)?, limit)
}

/// The text of `reader`, refused past `limit`: at most `limit.bytes + 1` bytes are read.
pub fn read_from(reader: impl Read, limit: Limit) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.read_at_most())
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > limit.bytes {
        return Err(ReadError::TooLarge(limit));
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Limit = Limit {
        what: "model",
        bytes: 8,
    };

    #[test]
    fn at_the_limit_is_read_past_it_refused() {
        assert_eq!(read_from(&b"12345678"[..], TINY).unwrap(), "12345678");
        let err = read_from(&b"123456789"[..], TINY).unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is larger than 8 bytes, the most a model may hold"
        );
    }

    #[test]
    fn an_endless_reader_is_refused_after_the_limit() {
        let err = read_from(std::io::repeat(b'a'), TINY).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge(_)), "{err}");
    }

    #[test]
    fn a_capped_stream_fails_past_the_limit_naming_it() {
        let mut text = String::new();
        let err = Capped::new(std::io::repeat(b'a'), TINY)
            .read_to_string(&mut text)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is larger than 8 bytes, the most a model may hold"
        );
        let mut text = String::new();
        Capped::new(&b"12345678"[..], TINY)
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "12345678");
    }

    #[test]
    fn sizes_are_grouped_and_named() {
        assert_eq!(size(16 << 20), "16 MiB (16,777,216 bytes)");
        assert_eq!(size(1000), "1,000 bytes");
        assert_eq!(size(7), "7 bytes");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused() {
        let err = read_from(&[0xff, 0xfe][..], TINY).unwrap_err();
        assert!(matches!(err, ReadError::NotUtf8));
    }
}
