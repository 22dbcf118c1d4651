//! The gate in front of every route that reads table data beside the DynamoDB endpoint itself
//! (the ui's table view, `/metrics` with key values): such a route asks for the endpoint's own
//! credentials, a SigV4 signature by `--auth`'s key, or it is off. A side door never asks for
//! less than the front door.

use std::net::IpAddr;
use std::time::SystemTime;

use axum::http::{HeaderMap, Method, StatusCode, Uri};

use super::sigv4::{self, Credentials, Rejection};

/// Who may read table data through a route that is not the DynamoDB endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataGate {
    /// Any caller the listener's guard lets in: no credentials are set and the listener is on
    /// loopback, where the endpoint itself takes any caller on this machine.
    Open,
    /// A SigV4 signature made with these credentials, as the endpoint asks (`--auth`).
    Signed(Credentials),
    /// Nobody: the listener is reachable from other machines and no credentials are set, so
    /// there is nothing to ask for.
    Off,
}

/// Why the gate turned a request away: an HTTP status, a stable code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denied {
    /// 401 for missing or wrong credentials, 403 when the route is off.
    pub status: StatusCode,
    /// `credentials_required`, `invalid_credentials` or `data_route_off`.
    pub code: &'static str,
    /// What the caller can do about it.
    pub message: String,
}

impl DataGate {
    /// The gate for a listener on `listen` whose endpoint takes `auth`: signed with `auth`
    /// when set; else open on loopback and off beyond it.
    pub fn new(auth: Option<Credentials>, listen: IpAddr) -> DataGate {
        match auth {
            Some(credentials) => DataGate::Signed(credentials),
            None if listen.is_loopback() => DataGate::Open,
            None => DataGate::Off,
        }
    }

    /// `"open"`, `"sigv4"` or `"off"`: what a page shows and asks for.
    pub fn mode(&self) -> &'static str {
        match self {
            DataGate::Open => "open",
            DataGate::Signed(_) => "sigv4",
            DataGate::Off => "off",
        }
    }

    /// The access key a signature must use, when one is asked for (never the secret).
    pub fn access_key(&self) -> Option<&str> {
        match self {
            DataGate::Signed(c) => Some(&c.access_key),
            _ => None,
        }
    }

    /// The region a signature must be scoped to, when one is asked for.
    pub fn region(&self) -> Option<&str> {
        match self {
            DataGate::Signed(c) => Some(&c.region),
            _ => None,
        }
    }

    /// Whether a request with these parts may read table data, at `now`.
    pub fn check(
        &self,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
        body: &[u8],
        now: SystemTime,
    ) -> Result<(), Denied> {
        match self {
            DataGate::Open => Ok(()),
            DataGate::Off => Err(Denied {
                status: StatusCode::FORBIDDEN,
                code: "data_route_off",
                message: "this route reads table data and is off: the server listens beyond \
                          loopback without credentials (start it with --auth KEY:SECRET to \
                          turn it on behind SigV4)"
                    .to_string(),
            }),
            DataGate::Signed(credentials) => {
                sigv4::verify(credentials, method, uri, headers, body, now).map_err(denied)
            }
        }
    }
}

/// A signature problem as the gate's answer.
fn denied(rejection: Rejection) -> Denied {
    let code = match rejection {
        Rejection::Missing => "credentials_required",
        _ => "invalid_credentials",
    };
    let (_, message) = rejection.kind_and_message();
    let message = match rejection {
        Rejection::Missing => "this route reads table data: sign the request with SigV4 using \
                               the DynamoDB endpoint's credentials (--auth KEY:SECRET), service \
                               `dynamodb`"
            .to_string(),
        _ => message,
    };
    Denied {
        status: StatusCode::UNAUTHORIZED,
        code,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn creds() -> Credentials {
        "local:s3cr3t-s3cr3t".parse().unwrap()
    }

    #[test]
    fn credentials_sign_loopback_opens_and_beyond_loopback_without_credentials_is_off() {
        let lo = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let any = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
        let lan = IpAddr::V4(Ipv4Addr::new(192, 168, 1, 5));
        assert_eq!(DataGate::new(None, lo), DataGate::Open);
        assert_eq!(
            DataGate::new(None, IpAddr::V6(Ipv6Addr::LOCALHOST)),
            DataGate::Open
        );
        assert_eq!(DataGate::new(None, any), DataGate::Off);
        assert_eq!(DataGate::new(None, lan), DataGate::Off);
        assert_eq!(DataGate::new(Some(creds()), lo), DataGate::Signed(creds()));
        assert_eq!(DataGate::new(Some(creds()), any), DataGate::Signed(creds()));
    }

    #[test]
    fn an_unsigned_request_is_refused_by_a_signed_or_off_gate() {
        let uri: Uri = "/ui/api/live/scan".parse().unwrap();
        let now = SystemTime::now();
        let open = DataGate::Open.check(&Method::GET, &uri, &HeaderMap::new(), b"", now);
        assert_eq!(open, Ok(()));
        let signed = DataGate::Signed(creds())
            .check(&Method::GET, &uri, &HeaderMap::new(), b"", now)
            .unwrap_err();
        assert_eq!(
            (signed.status, signed.code),
            (StatusCode::UNAUTHORIZED, "credentials_required")
        );
        let off = DataGate::Off
            .check(&Method::GET, &uri, &HeaderMap::new(), b"", now)
            .unwrap_err();
        assert_eq!(
            (off.status, off.code),
            (StatusCode::FORBIDDEN, "data_route_off")
        );
        let mut forged = HeaderMap::new();
        forged.insert(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=local/20261204/us-east-1/dynamodb/aws4_request, \
             SignedHeaders=host;x-amz-date, Signature=00"
                .parse()
                .unwrap(),
        );
        let forged = DataGate::Signed(creds())
            .check(&Method::GET, &uri, &forged, b"", now)
            .unwrap_err();
        assert_eq!(forged.code, "invalid_credentials");
        assert!(!forged.message.contains("s3cr3t"), "{}", forged.message);
    }
}
