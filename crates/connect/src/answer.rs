//! What the engine's request paths share: where a request came from ([`Origin`], with the
//! in-process client's stand-in [`AUTO_TOKEN`]) and what the engine answered ([`Answer`]).
//! `dispatch` runs a request and `capacity` meters one; both depend on this module, which
//! depends on neither. Public as `dispatch::{Answer, Origin, AUTO_TOKEN}`.

/// The `ClientRequestToken` the in-process client's SDK fills in when the caller gives none.
///
/// The SDK gives every transaction a fresh token so that a retry after a lost response is not
/// applied twice. In-process no response is lost, and the engine keeps every token's response
/// for ten minutes and scans that cache on each transaction, so the in-process client fills in
/// this fixed token instead and [`crate::dispatch::run`] drops it ([`Origin::InProcess`]): tokens a caller sets
/// itself keep their meaning.
pub const AUTO_TOKEN: &str = "monotable-in-process-auto-token";

/// Where a request came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The in-process connector: [`AUTO_TOKEN`] stands for "no token".
    InProcess,
    /// The HTTP endpoint: the request is taken as sent.
    Http,
}

/// What the engine answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// DynamoDB's JSON body.
    pub body: Vec<u8>,
    /// The durability ticket to wait for before sending it (file-backed engine only).
    pub(crate) ticket: Option<u64>,
}

impl Answer {
    pub(crate) fn new(status: u16, body: Vec<u8>) -> Answer {
        Answer {
            status,
            body,
            ticket: None,
        }
    }

    /// An error answer with only a `__type`.
    pub fn bare(status: u16, error_type: &str) -> Answer {
        Answer::new(
            status,
            format!(r#"{{"__type":"{error_type}"}}"#).into_bytes(),
        )
    }

    /// An error answer with a `__type` and a message.
    pub fn error(status: u16, error_type: &str, message: &str) -> Answer {
        let body = serde_json::json!({ "__type": error_type, "message": message });
        Answer::new(status, body.to_string().into_bytes())
    }

    /// An answer whose body is `json`, with `status`.
    #[cfg(any(feature = "capacity", feature = "faults"))]
    pub(crate) fn error_json(status: u16, json: serde_json::Value) -> Answer {
        Answer::new(status, json.to_string().into_bytes())
    }

    /// A 200 answer whose body is `json`.
    #[cfg(feature = "faults")]
    pub(crate) fn ok_json(json: serde_json::Value) -> Answer {
        Answer::new(200, json.to_string().into_bytes())
    }
}

/// `token` unless it is the in-process client's stand-in for none.
pub(crate) fn own_token(origin: Origin, token: Option<String>) -> Option<String> {
    token.filter(|t| origin == Origin::Http || t != AUTO_TOKEN)
}
