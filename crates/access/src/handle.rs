//! The table an app works on: an SDK client (from wherever: the embedded engine, an endpoint, AWS),
//! the table's name (the model's, or another one chosen at run time), the secret that seals
//! cursors, and how hard to retry transactions that lose a race.

use std::sync::Arc;
use std::time::Duration;

use aws_sdk_dynamodb::Client;

/// A handle on one table. Cloning is cheap.
#[derive(Clone)]
pub struct Table {
    inner: Arc<Inner>,
}

struct Inner {
    client: Client,
    name: String,
    cursor_secret: Vec<u8>,
    retries: Retries,
}

/// How transactions and batches that lose a race or come back throttled are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retries {
    /// Attempts in all (the first included).
    pub attempts: u32,
    /// Pause before the second attempt; doubles each time, with jitter.
    pub base: Duration,
    /// Longest pause.
    pub max: Duration,
}

impl Default for Retries {
    fn default() -> Self {
        Retries {
            attempts: 6,
            base: Duration::from_millis(5),
            max: Duration::from_millis(500),
        }
    }
}

impl Retries {
    /// The pause before attempt `attempt` (1-based after the first): exponential with full
    /// jitter, bounded by `max`.
    pub fn pause(&self, attempt: u32) -> Duration {
        let ceiling = self
            .base
            .saturating_mul(1u32 << attempt.min(16))
            .min(self.max);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        let mut bytes = [0u8; 8];
        let jitter = match getrandom::fill(&mut bytes) {
            Ok(()) => u64::from_le_bytes(bytes) % nanos.max(1),
            Err(_) => nanos / 2,
        };
        Duration::from_nanos(nanos / 2 + jitter / 2)
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("name", &self.inner.name)
            .field("retries", &self.inner.retries)
            .finish_non_exhaustive()
    }
}

impl Table {
    /// The table `name` reached through `client`. Cursors are sealed with a random secret of
    /// this process until [`Table::cursor_secret`] sets a lasting one.
    pub fn new(client: Client, name: impl Into<String>) -> Table {
        let mut secret = vec![0u8; 32];
        if getrandom::fill(&mut secret).is_err() {
            // No system randomness: cursors still seal (with a per-process constant), they are
            // just not secret; set a secret to make them so.
            secret = b"monotable: no randomness available".to_vec();
        }
        Table {
            inner: Arc::new(Inner {
                client,
                name: name.into(),
                cursor_secret: secret,
                retries: Retries::default(),
            }),
        }
    }

    fn with(&self, change: impl FnOnce(&mut Inner)) -> Table {
        let mut inner = Inner {
            client: self.inner.client.clone(),
            name: self.inner.name.clone(),
            cursor_secret: self.inner.cursor_secret.clone(),
            retries: self.inner.retries,
        };
        change(&mut inner);
        Table {
            inner: Arc::new(inner),
        }
    }

    /// The same table with cursors sealed by `secret` (share it between every instance that
    /// serves the same listings, so a cursor from one is valid on another).
    pub fn cursor_secret(&self, secret: &[u8]) -> Table {
        self.with(|i| i.cursor_secret = secret.to_vec())
    }

    /// The same table with other retries for transaction conflicts and unprocessed batches.
    pub fn retries(&self, retries: Retries) -> Table {
        self.with(|i| i.retries = retries)
    }

    /// The same client on another table of the same design (tests, a renamed deployment).
    pub fn renamed(&self, name: impl Into<String>) -> Table {
        let name = name.into();
        self.with(|i| i.name = name)
    }

    /// The SDK client.
    pub fn client(&self) -> &Client {
        &self.inner.client
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// How retries are made.
    pub fn retry_policy(&self) -> Retries {
        self.inner.retries
    }

    /// A cursor for a position of the app's own (a listing it merges from several queries),
    /// sealed like a pattern's cursors and bound to `scope`.
    pub fn seal_position(
        &self,
        scope: &str,
        at: std::collections::BTreeMap<String, String>,
    ) -> Option<String> {
        crate::cursor::encode_position(self.cursor_key(), scope, at)
    }

    /// The position in a cursor made by [`Table::seal_position`] for `scope`.
    pub fn open_position(
        &self,
        scope: &str,
        cursor: &str,
    ) -> Result<std::collections::BTreeMap<String, String>, crate::cursor::InvalidCursor> {
        crate::cursor::decode_position(self.cursor_key(), scope, cursor)
    }

    pub(crate) fn cursor_key(&self) -> &[u8] {
        &self.inner.cursor_secret
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_grow_with_jitter_and_stay_bounded() {
        let r = Retries::default();
        for attempt in 0..30 {
            let p = r.pause(attempt);
            assert!(p <= r.max, "{attempt}: {p:?}");
        }
        assert!(r.pause(1) <= Duration::from_millis(10));
    }
}
