//! Signature Version 4 verification for the DynamoDB endpoint (`serve --auth KEY:SECRET`): the
//! canonical request is rebuilt from what arrived, exactly as the signer built it, and the
//! signature is recomputed with the secret. aws-sigv4 supplies the key derivation and the HMAC;
//! it signs but does not verify, so the canonical request is built here.

use std::str::FromStr;
use std::time::{Duration, SystemTime};

use axum::http::{HeaderMap, Method, Uri};
use sha2::{Digest, Sha256};

use crate::dispatch::Answer;

const ALGORITHM: &str = "AWS4-HMAC-SHA256";
/// How far a request's `X-Amz-Date` may be from this machine's clock, as DynamoDB allows.
pub const MAX_SKEW: Duration = Duration::from_secs(15 * 60);

/// The region a credential is scoped to unless the endpoint is given another
/// ([`Credentials::in_region`]).
pub const DEFAULT_REGION: &str = "us-east-1";
/// The service every credential must be scoped to.
const SERVICE: &str = "dynamodb";

/// The one access key the endpoint accepts, its secret, and the region its signatures must be
/// scoped to (DynamoDB refuses a credential scoped to another region).
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The access key id.
    pub access_key: String,
    /// The secret access key.
    pub secret_key: String,
    /// The region signatures are scoped to.
    pub region: String,
}

impl Credentials {
    /// These credentials, accepted in `region` only.
    pub fn in_region(mut self, region: impl Into<String>) -> Credentials {
        self.region = region.into();
        self
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key", &self.access_key)
            .field("secret_key", &"<hidden>")
            .field("region", &self.region)
            .finish()
    }
}

impl FromStr for Credentials {
    type Err = String;

    /// `KEY:SECRET`.
    fn from_str(s: &str) -> Result<Credentials, String> {
        let (key, secret) = s
            .split_once(':')
            .ok_or("expected KEY:SECRET, e.g. --auth local:s3cr3t-s3cr3t")?;
        if key.is_empty() || secret.len() < 8 {
            return Err(
                "the key must not be empty and the secret needs at least 8 characters".into(),
            );
        }
        Ok(Credentials {
            access_key: key.to_string(),
            secret_key: secret.to_string(),
            region: DEFAULT_REGION.to_string(),
        })
    }
}

/// Why a request was refused, in DynamoDB's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// No `Authorization` header.
    Missing,
    /// Query-string signatures (presigned URLs) are not accepted.
    QueryString,
    /// The header is not a complete SigV4 authorization.
    Malformed(String),
    /// Another access key.
    UnknownKey,
    /// The credential is scoped to another region (the one named).
    WrongRegion(String),
    /// The credential is scoped to another service than DynamoDB.
    WrongService,
    /// The credential's date is not the day of `X-Amz-Date` (DynamoDB's message).
    DateMismatch(String),
    /// The date is too far from now (DynamoDB's message).
    Expired(String),
    /// The signature does not match.
    BadSignature,
}

impl Rejection {
    /// The answer DynamoDB gives. The texts are DynamoDB's own as its clients quote them in
    /// public GitHub issues: the region from aws/aws-sdk-js#4002 and 3mcloud/falcano#47 (both
    /// DynamoDB), an expired signature from sebdah/dynamic-dynamodb#118, a wrong signature from
    /// awslabs/dynamodb-cross-region-library#34; the service and the scope's date in the form
    /// every AWS JSON service answers them (aws/aws-sdk-go-v2#163, disneystreaming/smithy4s#1568
    /// and #387, tedder/requests-aws4auth#7), with DynamoDB's name. AWS IAM's "Troubleshoot
    /// signed requests" page lists the same checks. DynamoDB appends the canonical request to a
    /// wrong signature's message; this endpoint does not. `QueryString` and `Malformed` are this
    /// endpoint's own: DynamoDB accepts presigned URLs, and a header's completeness is checked
    /// first, in DynamoDB's words, by `dynoxide::auth_material` (see `serve::endpoint`).
    pub fn answer(&self) -> Answer {
        const CORAL: &str = "com.amazon.coral.service#";
        let (kind, message) = self.kind_and_message();
        Answer::error(400, &format!("{CORAL}{kind}"), &message)
    }

    /// DynamoDB's exception name for it, and its message.
    pub fn kind_and_message(&self) -> (&'static str, String) {
        match self {
            Rejection::Missing => ("MissingAuthenticationTokenException", "Request is missing Authentication Token".to_string()),
            Rejection::QueryString => ("IncompleteSignatureException", "this endpoint accepts only signatures in the Authorization header".to_string()),
            Rejection::Malformed(why) => ("IncompleteSignatureException", why.clone()),
            Rejection::UnknownKey => ("UnrecognizedClientException", "The security token included in the request is invalid.".to_string()),
            Rejection::WrongRegion(region) => ("InvalidSignatureException", format!("Credential should be scoped to a valid region, not '{region}'. ")),
            Rejection::WrongService => ("InvalidSignatureException", format!("Credential should be scoped to correct service: '{SERVICE}'. ")),
            Rejection::DateMismatch(why) | Rejection::Expired(why) => ("InvalidSignatureException", why.clone()),
            Rejection::BadSignature => ("InvalidSignatureException", "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.".to_string()),
        }
    }
}

/// The parts of an `Authorization: AWS4-HMAC-SHA256 ...` header.
#[derive(Debug)]
struct Authorization<'a> {
    access_key: &'a str,
    date: &'a str,
    region: &'a str,
    service: &'a str,
    signed_headers: Vec<&'a str>,
    signature: &'a str,
}

fn parse(header: &str) -> Result<Authorization<'_>, Rejection> {
    let malformed = |why: &str| Rejection::Malformed(why.to_string());
    let rest = header
        .strip_prefix(ALGORITHM)
        .ok_or_else(|| malformed("the Authorization header must use AWS4-HMAC-SHA256"))?;
    let field = |name: &str| {
        rest.split(',')
            .map(str::trim)
            .find_map(|part| part.strip_prefix(name)?.strip_prefix('='))
            .ok_or_else(|| malformed(&format!("Authorization header requires '{name}' parameter")))
    };
    let credential = field("Credential")?;
    let scope: Vec<&str> = credential.split('/').collect();
    let [access_key, date, region, service, "aws4_request"] = scope[..] else {
        return Err(malformed(
            "the Credential must be KEY/DATE/REGION/SERVICE/aws4_request",
        ));
    };
    Ok(Authorization {
        access_key,
        date,
        region,
        service,
        signed_headers: field("SignedHeaders")?.split(';').collect(),
        signature: field("Signature")?,
    })
}

/// Verify a request signed for DynamoDB with `credentials`, at `now`.
pub fn verify(
    credentials: &Credentials,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
    now: SystemTime,
) -> Result<(), Rejection> {
    if uri.query().is_some_and(|q| q.contains("X-Amz-Signature")) {
        return Err(Rejection::QueryString);
    }
    let header = headers
        .get("authorization")
        .ok_or(Rejection::Missing)?
        .to_str()
        .map_err(|_| Rejection::Malformed("the Authorization header is not ASCII".into()))?;
    let auth = parse(header)?;
    if auth.region != credentials.region {
        return Err(Rejection::WrongRegion(auth.region.to_string()));
    }
    if auth.service != SERVICE {
        return Err(Rejection::WrongService);
    }
    if auth.access_key != credentials.access_key {
        return Err(Rejection::UnknownKey);
    }
    if !auth.signed_headers.contains(&"host") {
        return Err(Rejection::Malformed(
            "the signature must cover the Host header".into(),
        ));
    }
    let amz_date = headers
        .get("x-amz-date")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Rejection::Malformed("the request has no X-Amz-Date header".into()))?;
    let signed_at = parse_amz_date(amz_date)?;
    let day = &amz_date[..8];
    if auth.date != day {
        return Err(Rejection::DateMismatch(format!(
            "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '{}' != '{day}', from '{amz_date}'.",
            auth.date
        )));
    }
    check_skew(amz_date, signed_at, now)?;
    let canonical = canonical_request(method, uri, headers, &auth.signed_headers, body)?;
    let scope = format!(
        "{}/{}/{}/aws4_request",
        auth.date, auth.region, auth.service
    );
    let string_to_sign = format!(
        "{ALGORITHM}\n{amz_date}\n{scope}\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    );
    let key = aws_sigv4::sign::v4::generate_signing_key(
        &credentials.secret_key,
        signed_at,
        auth.region,
        auth.service,
    );
    let expected = aws_sigv4::sign::v4::calculate_signature(key, string_to_sign.as_bytes());
    if constant_time_eq(expected.as_bytes(), auth.signature.as_bytes()) {
        Ok(())
    } else {
        Err(Rejection::BadSignature)
    }
}

const AMZ_DATE: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");

fn parse_amz_date(text: &str) -> Result<SystemTime, Rejection> {
    time::PrimitiveDateTime::parse(text, AMZ_DATE)
        .map(|t| SystemTime::from(t.assume_utc()))
        .map_err(|_| Rejection::Malformed(format!("X-Amz-Date `{text}` is not YYYYMMDDTHHMMSSZ")))
}

/// `t` as `X-Amz-Date` writes it.
fn amz_date(t: SystemTime) -> String {
    time::OffsetDateTime::from(t)
        .format(AMZ_DATE)
        .unwrap_or_else(|_| "?".to_string())
}

/// Refuse a signature made more than [`MAX_SKEW`] before or after `now`, in DynamoDB's words.
fn check_skew(
    amz_date_text: &str,
    signed_at: SystemTime,
    now: SystemTime,
) -> Result<(), Rejection> {
    let stamp = |t: Option<SystemTime>| t.map_or_else(|| "?".to_string(), amz_date);
    match now.duration_since(signed_at) {
        Ok(age) if age > MAX_SKEW => Err(Rejection::Expired(format!(
            "Signature expired: {amz_date_text} is now earlier than {} ({} - 15 min.)",
            stamp(now.checked_sub(MAX_SKEW)),
            stamp(Some(now))
        ))),
        Err(ahead) if ahead.duration() > MAX_SKEW => Err(Rejection::Expired(format!(
            "Signature not yet current: {amz_date_text} is still later than {} ({} + 15 min.)",
            stamp(now.checked_add(MAX_SKEW)),
            stamp(Some(now))
        ))),
        _ => Ok(()),
    }
}

/// The canonical request, as SigV4 defines it for services other than S3.
fn canonical_request(
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    signed: &[&str],
    body: &[u8],
) -> Result<String, Rejection> {
    let mut out = format!(
        "{method}\n{}\n{}\n",
        canonical_path(uri.path()),
        canonical_query(uri.query().unwrap_or(""))
    );
    for name in signed {
        let values: Vec<String> = headers
            .get_all(*name)
            .iter()
            .map(|v| v.to_str().map(collapse_spaces))
            .collect::<Result<_, _>>()
            .map_err(|_| Rejection::Malformed(format!("signed header `{name}` is not ASCII")))?;
        if values.is_empty() {
            return Err(Rejection::Malformed(format!(
                "signed header `{name}` is not in the request"
            )));
        }
        out.push_str(&format!("{name}:{}\n", values.join(",")));
    }
    let payload = hex(&Sha256::digest(body));
    if let Some(claimed) = headers
        .get("x-amz-content-sha256")
        .and_then(|v| v.to_str().ok())
        && claimed != payload
    {
        return Err(Rejection::BadSignature);
    }
    out.push_str(&format!("\n{}\n{payload}", signed.join(";")));
    Ok(out)
}

fn collapse_spaces(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// SigV4's URI encoding: unreserved characters kept, everything else `%XX` (upper case).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// Each segment of the path encoded once more (the path arrives encoded; non-S3 services sign
/// it double-encoded).
fn canonical_path(path: &str) -> String {
    if path.is_empty() {
        return "/".into();
    }
    path.split('/').map(encode).collect::<Vec<_>>().join("/")
}

fn canonical_query(query: &str) -> String {
    let decode = |s: &str| {
        percent_encoding::percent_decode_str(s)
            .decode_utf8_lossy()
            .into_owned()
    };
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (encode(&decode(k)), encode(&decode(v)))
        })
        .collect();
    pairs.sort();
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds() -> Credentials {
        "AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
            .parse()
            .unwrap()
    }

    /// A request signed by aws-sigv4's own signer, as the SDK signs it.
    fn signed(secret: &str, body: &'static str, at: SystemTime) -> http::Request<&'static str> {
        signed_for(secret, body, at, "us-east-1", "dynamodb")
    }

    /// The same, with the credential scoped to `region` and `service`.
    fn signed_for(
        secret: &str,
        body: &'static str,
        at: SystemTime,
        region: &str,
        service: &str,
    ) -> http::Request<&'static str> {
        use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
        use aws_sigv4::sign::v4::SigningParams;
        let mut request = http::Request::builder()
            .method("POST")
            .uri("http://127.0.0.1:8000/")
            .header("host", "127.0.0.1:8000")
            .header("content-type", "application/x-amz-json-1.0")
            .header("x-amz-target", "DynamoDB_20120810.ListTables")
            .body(body)
            .unwrap();
        let identity =
            aws_credential_types::Credentials::new("AKIDEXAMPLE", secret, None, None, "test")
                .into();
        let params = SigningParams::builder()
            .identity(&identity)
            .region(region)
            .name(service)
            .time(at)
            .settings(SigningSettings::default())
            .build()
            .unwrap()
            .into();
        let signable = SignableRequest::new(
            "POST",
            "http://127.0.0.1:8000/",
            request
                .headers()
                .iter()
                .map(|(k, v)| (k.as_str(), v.to_str().unwrap())),
            SignableBody::Bytes(body.as_bytes()),
        )
        .unwrap();
        let (instructions, _) = sign(signable, &params).unwrap().into_parts();
        instructions.apply_to_request_http1x(&mut request);
        request
    }

    fn check(request: &http::Request<&'static str>, now: SystemTime) -> Result<(), Rejection> {
        verify(
            &creds(),
            request.method(),
            request.uri(),
            request.headers(),
            request.body().as_bytes(),
            now,
        )
    }

    #[test]
    fn a_request_signed_with_the_secret_verifies() {
        let now = SystemTime::now();
        let request = signed(&creds().secret_key, "{}", now);
        assert_eq!(check(&request, now), Ok(()));
    }

    #[test]
    fn wrong_secret_tampered_body_and_stale_dates_are_refused() {
        let now = SystemTime::now();
        assert_eq!(
            check(&signed("another-secret-entirely", "{}", now), now),
            Err(Rejection::BadSignature)
        );
        let mut tampered = signed(&creds().secret_key, "{}", now);
        *tampered.body_mut() = r#"{"Limit":1}"#;
        assert_eq!(check(&tampered, now), Err(Rejection::BadSignature));
        let old = signed(
            &creds().secret_key,
            "{}",
            now - Duration::from_secs(20 * 60),
        );
        assert!(matches!(check(&old, now), Err(Rejection::Expired(_))));
    }

    #[test]
    fn missing_foreign_and_malformed_authorizations_are_refused() {
        let now = SystemTime::now();
        let mut request = signed(&creds().secret_key, "{}", now);
        let header = request.headers()["authorization"]
            .to_str()
            .unwrap()
            .to_string();
        request.headers_mut().insert(
            "authorization",
            header.replace("AKIDEXAMPLE", "OTHERKEY").parse().unwrap(),
        );
        assert_eq!(check(&request, now), Err(Rejection::UnknownKey));
        request.headers_mut().insert(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=junk".parse().unwrap(),
        );
        assert!(matches!(check(&request, now), Err(Rejection::Malformed(_))));
        request.headers_mut().remove("authorization");
        assert_eq!(check(&request, now), Err(Rejection::Missing));
        let presigned: Uri = "/?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00"
            .parse()
            .unwrap();
        let err = verify(
            &creds(),
            &Method::POST,
            &presigned,
            request.headers(),
            b"{}",
            now,
        );
        assert_eq!(err, Err(Rejection::QueryString));
    }

    /// The `__type` and `message` of a refusal.
    fn said(rejection: &Rejection) -> (String, String) {
        let answer = rejection.answer();
        assert_eq!(answer.status, 400);
        let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
        (
            body["__type"].as_str().unwrap().to_string(),
            body["message"].as_str().unwrap().to_string(),
        )
    }

    const INVALID_SIGNATURE: &str = "com.amazon.coral.service#InvalidSignatureException";

    #[test]
    fn a_credential_scoped_to_another_region_gets_dynamodbs_answer() {
        let now = SystemTime::now();
        let elsewhere = signed_for(&creds().secret_key, "{}", now, "eu-west-1", "dynamodb");
        let refused = check(&elsewhere, now).unwrap_err();
        assert_eq!(refused, Rejection::WrongRegion("eu-west-1".into()));
        assert_eq!(
            said(&refused),
            (
                INVALID_SIGNATURE.to_string(),
                "Credential should be scoped to a valid region, not 'eu-west-1'. ".to_string()
            )
        );
        // The region the endpoint was given is the one it accepts.
        let in_eu = creds().in_region("eu-west-1");
        let verified = verify(
            &in_eu,
            elsewhere.method(),
            elsewhere.uri(),
            elsewhere.headers(),
            b"{}",
            now,
        );
        assert_eq!(verified, Ok(()));
        let home = signed(&creds().secret_key, "{}", now);
        let refused = verify(
            &in_eu,
            home.method(),
            home.uri(),
            home.headers(),
            b"{}",
            now,
        );
        assert_eq!(refused, Err(Rejection::WrongRegion("us-east-1".into())));
    }

    #[test]
    fn a_credential_scoped_to_another_service_gets_dynamodbs_answer() {
        let now = SystemTime::now();
        let s3 = signed_for(&creds().secret_key, "{}", now, "us-east-1", "s3");
        let refused = check(&s3, now).unwrap_err();
        assert_eq!(refused, Rejection::WrongService);
        assert_eq!(
            said(&refused),
            (
                INVALID_SIGNATURE.to_string(),
                "Credential should be scoped to correct service: 'dynamodb'. ".to_string()
            )
        );
    }

    #[test]
    fn dates_out_of_step_get_dynamodbs_texts() {
        let format =
            time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
        let stamp = |t: SystemTime| time::OffsetDateTime::from(t).format(&format).unwrap();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let quarter = Duration::from_secs(15 * 60);
        let old = now - Duration::from_secs(20 * 60);
        let refused = check(&signed(&creds().secret_key, "{}", old), now).unwrap_err();
        let expected = format!(
            "Signature expired: {} is now earlier than {} ({} - 15 min.)",
            stamp(old),
            stamp(now - quarter),
            stamp(now)
        );
        assert_eq!(said(&refused), (INVALID_SIGNATURE.to_string(), expected));
        let ahead = now + Duration::from_secs(20 * 60);
        let refused = check(&signed(&creds().secret_key, "{}", ahead), now).unwrap_err();
        let expected = format!(
            "Signature not yet current: {} is still later than {} ({} + 15 min.)",
            stamp(ahead),
            stamp(now + quarter),
            stamp(now)
        );
        assert_eq!(said(&refused), (INVALID_SIGNATURE.to_string(), expected));
        // A scope of another day than X-Amz-Date's.
        let mut request = signed(&creds().secret_key, "{}", now);
        let header = request.headers()["authorization"].to_str().unwrap();
        let day = &stamp(now)[..8];
        let other = header.replace(&format!("/{day}/"), "/20000101/");
        request
            .headers_mut()
            .insert("authorization", other.parse().unwrap());
        let refused = check(&request, now).unwrap_err();
        let expected = format!(
            "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20000101' != '{day}', from '{}'.",
            stamp(now)
        );
        assert_eq!(said(&refused), (INVALID_SIGNATURE.to_string(), expected));
    }

    #[test]
    fn a_wrong_signature_gets_dynamodbs_text() {
        let (kind, message) = said(&Rejection::BadSignature);
        assert_eq!(kind, INVALID_SIGNATURE);
        assert_eq!(
            message,
            "The request signature we calculated does not match the signature you provided. \
             Check your AWS Secret Access Key and signing method. Consult the service \
             documentation for details."
        );
    }

    #[test]
    fn query_strings_are_canonicalised_sorted_and_encoded() {
        assert_eq!(canonical_query("b=2&a=%20x&a=1"), "a=%20x&a=1&b=2");
        assert_eq!(canonical_path("/a b"), "/a%20b");
        assert_eq!(canonical_path(""), "/");
    }
}
