//! Who is calling: bearer JWTs (`sub` is the user id; `admin` in the `groups` claim makes an
//! admin), verified with HS256 locally, or taken from API Gateway's JWT authorizer on Lambda.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::Shop;
use crate::error::ShopError;

/// The group that makes a caller an admin.
pub const ADMIN_GROUP: &str = "admin";
/// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds.
pub const LEEWAY_SECONDS: u64 = 30;
/// Longest token lifetime accepted by default: 24 hours.
pub const DEFAULT_MAX_LIFETIME_SECONDS: u64 = 24 * 3600;

/// How callers are authenticated.
#[derive(Clone)]
pub enum Auth {
    /// Verify `Authorization: Bearer` tokens signed with this HS256 secret (local `serve`).
    Hs256 {
        /// The shared secret.
        secret: Vec<u8>,
        /// Tokens whose `exp` lies further ahead than this (in seconds, from now or from their
        /// `iat`) are refused, whoever signed them.
        max_lifetime: u64,
    },
    /// Trust the claims API Gateway's JWT authorizer verified and put in the request context.
    LambdaAuthorizer(GatewayClaims),
}

/// Where, in the claims an identity provider puts in its tokens, a caller's groups are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayClaims {
    /// Claims holding groups, read in order and merged: `groups` (most providers),
    /// `cognito:groups` (Amazon Cognito user pools).
    pub groups_claims: Vec<String>,
    /// The group that makes a caller an admin.
    pub admin_group: String,
}

impl Default for GatewayClaims {
    fn default() -> Self {
        GatewayClaims {
            groups_claims: vec!["groups".into(), "cognito:groups".into()],
            admin_group: ADMIN_GROUP.into(),
        }
    }
}

impl GatewayClaims {
    /// From the function's settings: `groups_claims` comma-separated, `admin_group`; the
    /// defaults where a setting is absent or blank.
    pub fn from_env(groups_claims: Option<&str>, admin_group: Option<&str>) -> GatewayClaims {
        let mut claims = GatewayClaims::default();
        if let Some(list) = groups_claims.filter(|l| !l.trim().is_empty()) {
            claims.groups_claims = list
                .split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect();
        }
        if let Some(group) = admin_group.map(str::trim).filter(|g| !g.is_empty()) {
            claims.admin_group = group.to_string();
        }
        claims
    }

    /// The caller the verified `claims` describe.
    fn caller(&self, claims: &HashMap<String, String>) -> Result<Caller, ShopError> {
        let sub = claims
            .get("sub")
            .ok_or_else(|| ShopError::Unauthenticated("the token has no `sub`".into()))?;
        let groups: Vec<String> = self
            .groups_claims
            .iter()
            .filter_map(|name| claims.get(name))
            .flat_map(|value| groups_claim(value))
            .collect();
        let mut caller = caller(sub, std::iter::empty())?;
        caller.admin = groups.contains(&self.admin_group);
        Ok(caller)
    }
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Auth::Hs256 { max_lifetime, .. } => {
                write!(
                    f,
                    "Hs256 {{ secret: <hidden>, max_lifetime: {max_lifetime} }}"
                )
            }
            Auth::LambdaAuthorizer(claims) => write!(f, "LambdaAuthorizer({claims:?})"),
        }
    }
}

/// The authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The user id (`sub`).
    pub user_id: String,
    /// Member of the `admin` group.
    pub admin: bool,
}

impl Caller {
    /// The caller is `user_id` or an admin.
    pub fn is_self_or_admin(&self, user_id: &str) -> bool {
        self.admin || self.user_id == user_id
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    exp: u64,
    #[serde(default)]
    iat: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nbf: Option<u64>,
    #[serde(default)]
    groups: Vec<String>,
}

/// What a token must pass beyond its signature: HS256, `exp` and `sub` present, `exp` and `nbf`
/// checked with [`LEEWAY_SECONDS`]. Built once, not per request: building it allocates hash sets
/// of claim names, about 8 % of the token check's samples in serve's profile (docs/benchmarks.md).
static VALIDATION: LazyLock<Validation> = LazyLock::new(|| {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = LEEWAY_SECONDS;
    validation.validate_nbf = true;
    validation.set_required_spec_claims(&["exp", "sub"]);
    validation
});

impl Auth {
    /// HS256 with `secret` and the default maximum lifetime.
    pub fn hs256(secret: Vec<u8>) -> Auth {
        Auth::Hs256 {
            secret,
            max_lifetime: DEFAULT_MAX_LIFETIME_SECONDS,
        }
    }
}

fn now_seconds() -> Result<u64, ShopError> {
    Ok(std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(ShopError::internal)?
        .as_secs())
}

/// Refuse a token that lives longer than `max_lifetime` (from now, or from its `iat`), or that
/// claims to be issued in the future.
fn check_lifetime(claims: &Claims, max_lifetime: u64, now: u64) -> Result<(), ShopError> {
    if claims
        .iat
        .is_some_and(|iat| iat > now.saturating_add(LEEWAY_SECONDS))
    {
        return Err(ShopError::Unauthenticated(
            "the token's `iat` lies in the future".into(),
        ));
    }
    let limit = max_lifetime.saturating_add(LEEWAY_SECONDS);
    let from_now = claims.exp > now.saturating_add(limit);
    let from_iat = claims
        .iat
        .is_some_and(|iat| claims.exp.saturating_sub(iat) > limit);
    if from_now || from_iat {
        return Err(ShopError::Unauthenticated(format!(
            "the token lives longer than this server accepts ({max_lifetime} s); get a shorter-lived one"
        )));
    }
    Ok(())
}

impl Auth {
    /// Sign a token for `user_id` valid for `ttl_seconds` (HS256 only).
    pub fn issue(&self, user_id: &str, admin: bool, ttl_seconds: u64) -> Result<String, ShopError> {
        let Auth::Hs256 {
            secret,
            max_lifetime,
        } = self
        else {
            return Err(ShopError::internal(
                "tokens are issued by your identity provider on Lambda",
            ));
        };
        crate::users::validate_user_id(user_id)?;
        if ttl_seconds > *max_lifetime {
            return Err(ShopError::invalid(
                "invalid_ttl",
                format!("a token lives at most {max_lifetime} s"),
            ));
        }
        let now = now_seconds()?;
        let claims = Claims {
            sub: user_id.to_string(),
            exp: now + ttl_seconds,
            iat: Some(now),
            nbf: None,
            groups: if admin {
                vec![ADMIN_GROUP.to_string()]
            } else {
                Vec::new()
            },
        };
        jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(secret),
        )
        .map_err(ShopError::internal)
    }

    /// Verify a bearer token.
    pub fn verify(&self, token: &str) -> Result<Caller, ShopError> {
        self.verify_claims(token).map(|(caller, _)| caller)
    }

    /// Verify a bearer token, or find it among the tokens `verified` holds (the same text,
    /// verified before by this `Auth`) while it has not expired.
    pub(crate) fn verify_with(
        &self,
        token: &str,
        verified: &Verified,
    ) -> Result<Caller, ShopError> {
        let now = now_seconds()?;
        if let Some(caller) = verified.get(token, now) {
            return Ok(caller);
        }
        let (caller, exp) = self.verify_claims(token)?;
        verified.put(token, &caller, exp);
        Ok(caller)
    }

    /// The caller a bearer token names, and its `exp`.
    fn verify_claims(&self, token: &str) -> Result<(Caller, u64), ShopError> {
        let Auth::Hs256 {
            secret,
            max_lifetime,
        } = self
        else {
            return Err(ShopError::Unauthenticated(
                "no verified claims in the request context".into(),
            ));
        };
        let data =
            jsonwebtoken::decode::<Claims>(token, &DecodingKey::from_secret(secret), &VALIDATION)
                .map_err(|e| {
                let why = match e.kind() {
                    jsonwebtoken::errors::ErrorKind::ExpiredSignature => "the token has expired",
                    jsonwebtoken::errors::ErrorKind::ImmatureSignature => {
                        "the token is not valid yet (`nbf` lies in the future)"
                    }
                    jsonwebtoken::errors::ErrorKind::InvalidSignature => {
                        "the token's signature is wrong"
                    }
                    _ => "the token is not a valid HS256 JWT with `sub` and `exp`",
                };
                ShopError::Unauthenticated(why.into())
            })?;
        check_lifetime(&data.claims, *max_lifetime, now_seconds()?)?;
        let caller = caller(
            &data.claims.sub,
            data.claims.groups.iter().map(String::as_str),
        )?;
        Ok((caller, data.claims.exp))
    }
}

/// Most tokens [`Verified`] holds; when full, it starts again empty.
pub const VERIFIED_TOKENS: usize = 4096;

/// Bearer tokens verified before, by their whole text (signature included), with their caller
/// and `exp`: a client sends the same token on every request, and verifying it again (HMAC key
/// set-up, signature, claims JSON) was about 8 % of serve's CPU on `GET /users/{id}`
/// (docs/benchmarks.md). Every other check a token passed stays passed as time goes on
/// (`nbf`, `iat`, the lifetime limit), so a hit only checks `exp` again, with the same leeway.
/// Only tokens that verified are kept, so filling it takes the secret.
#[derive(Default)]
pub struct Verified {
    tokens: Mutex<HashMap<String, (Caller, u64)>>,
}

impl Verified {
    fn get(&self, token: &str, now: u64) -> Option<Caller> {
        let tokens = self.tokens.lock().ok()?;
        let (caller, exp) = tokens.get(token)?;
        (exp.saturating_add(LEEWAY_SECONDS) >= now).then(|| caller.clone())
    }

    fn put(&self, token: &str, caller: &Caller, exp: u64) {
        if let Ok(mut tokens) = self.tokens.lock() {
            if tokens.len() >= VERIFIED_TOKENS {
                tokens.clear();
            }
            tokens.insert(token.to_string(), (caller.clone(), exp));
        }
    }
}

fn caller<'a>(sub: &str, groups: impl Iterator<Item = &'a str>) -> Result<Caller, ShopError> {
    if crate::users::validate_user_id(sub).is_err() {
        return Err(ShopError::Unauthenticated(
            "the token's `sub` is not a valid user id".into(),
        ));
    }
    let admin = groups.into_iter().any(|g| g == ADMIN_GROUP);
    Ok(Caller {
        user_id: sub.to_string(),
        admin,
    })
}

/// API Gateway passes claims as strings; a list claim arrives as `[a b]` or as JSON.
fn groups_claim(value: &str) -> Vec<String> {
    if let Ok(list) = serde_json::from_str::<Vec<String>>(value) {
        return list;
    }
    value
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn lambda_claims(parts: &Parts) -> Option<HashMap<String, String>> {
    use lambda_http::request::RequestContext;
    match parts.extensions.get::<RequestContext>()? {
        RequestContext::ApiGatewayV2(ctx) => ctx
            .authorizer
            .as_ref()
            .and_then(|a| a.jwt.as_ref())
            .map(|jwt| jwt.claims.clone()),
        RequestContext::ApiGatewayV1(ctx) => {
            ctx.authorizer.jwt.as_ref().map(|jwt| jwt.claims.clone())
        }
        _ => None,
    }
}

impl FromRequestParts<Shop> for Caller {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, shop: &Shop) -> Result<Caller, ShopError> {
        if let Auth::LambdaAuthorizer(settings) = shop.auth() {
            let claims = lambda_claims(parts).ok_or_else(|| {
                ShopError::Unauthenticated("no verified JWT claims in the request context".into())
            })?;
            return settings.caller(&claims);
        }
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .ok_or_else(|| {
                ShopError::Unauthenticated(
                    "missing `Authorization: Bearer <token>` (make one with `monotable-shop token --user ID`)"
                        .into(),
                )
            })?;
        let token = header
            .to_str()
            .ok()
            .and_then(|h| {
                h.strip_prefix("Bearer ")
                    .or_else(|| h.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                ShopError::Unauthenticated(
                    "the Authorization header is not `Bearer <token>`".into(),
                )
            })?;
        shop.auth().verify_with(token, shop.verified())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_verify_and_others_do_not() {
        let auth = Auth::hs256(b"secret".to_vec());
        let token = auth.issue("alice", false, 60).unwrap();
        assert_eq!(
            auth.verify(&token).unwrap(),
            Caller {
                user_id: "alice".into(),
                admin: false
            }
        );
        assert!(
            auth.verify(&auth.issue("root", true, 60).unwrap())
                .unwrap()
                .admin
        );
        let other = Auth::hs256(b"other".to_vec());
        assert_eq!(other.verify(&token).unwrap_err().code(), "unauthenticated");
        assert!(auth.verify("not.a.token").is_err());
    }

    fn signed(claims: &Claims) -> String {
        jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            claims,
            &EncodingKey::from_secret(b"secret"),
        )
        .unwrap()
    }

    fn claims(exp: u64, iat: Option<u64>, nbf: Option<u64>) -> Claims {
        Claims {
            sub: "alice".into(),
            exp,
            iat,
            nbf,
            groups: vec![],
        }
    }

    fn refusal(token: &str) -> String {
        Auth::hs256(b"secret".to_vec())
            .verify(token)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn verified_tokens_are_found_again_until_they_expire() {
        let auth = Auth::hs256(b"secret".to_vec());
        let verified = Verified::default();
        let token = auth.issue("alice", true, 60).unwrap();
        let alice = auth.verify_with(&token, &verified).unwrap();
        let now = now_seconds().unwrap();
        assert_eq!(verified.get(&token, now), Some(alice.clone()));
        assert_eq!(auth.verify_with(&token, &verified).unwrap(), alice);
        // Past `exp` and the leeway, the token is no longer found.
        let end = now + 60 + LEEWAY_SECONDS;
        assert_eq!(verified.get(&token, end), Some(alice));
        assert_eq!(verified.get(&token, end + 1), None);
    }

    #[test]
    fn refused_tokens_are_not_kept_and_kept_ones_vouch_for_no_other_text() {
        let auth = Auth::hs256(b"secret".to_vec());
        let verified = Verified::default();
        let token = auth.issue("alice", false, 60).unwrap();
        auth.verify_with(&token, &verified).unwrap();
        // Same header and claims, another signature: verified, and refused.
        let (body, _) = token.rsplit_once('.').unwrap();
        let forged = Auth::hs256(b"other".to_vec())
            .issue("alice", false, 60)
            .unwrap();
        let forged = format!("{body}.{}", forged.rsplit_once('.').unwrap().1);
        assert!(auth.verify_with(&forged, &verified).is_err());
        assert!(auth.verify_with("not a token", &verified).is_err());
        let tokens = verified.tokens.lock().unwrap();
        assert_eq!(tokens.len(), 1);
        assert!(tokens.contains_key(&token));
    }

    #[test]
    fn a_full_set_of_verified_tokens_starts_again() {
        let verified = Verified::default();
        let caller = Caller {
            user_id: "alice".into(),
            admin: false,
        };
        for n in 0..=VERIFIED_TOKENS {
            verified.put(&format!("token-{n}"), &caller, u64::MAX);
        }
        let tokens = verified.tokens.lock().unwrap();
        assert_eq!(tokens.len(), 1);
        assert!(tokens.contains_key(&format!("token-{VERIFIED_TOKENS}")));
    }

    #[test]
    fn expired_tokens_are_refused() {
        assert!(refusal(&signed(&claims(1_000, None, None))).contains("expired"));
    }

    #[test]
    fn tokens_not_valid_yet_are_refused() {
        let now = now_seconds().unwrap();
        let early = signed(&claims(now + 600, Some(now), Some(now + 300)));
        assert!(
            refusal(&early).contains("not valid yet"),
            "{}",
            refusal(&early)
        );
        let future_iat = signed(&claims(now + 600, Some(now + 300), None));
        assert!(refusal(&future_iat).contains("`iat`"));
        // Within the leeway, a slightly early nbf passes.
        let skewed = signed(&claims(now + 600, Some(now), Some(now + 10)));
        assert!(Auth::hs256(b"secret".to_vec()).verify(&skewed).is_ok());
    }

    #[test]
    fn tokens_beyond_the_maximum_lifetime_are_refused() {
        let now = now_seconds().unwrap();
        for exp in [u64::MAX, 1 << 63, now + DEFAULT_MAX_LIFETIME_SECONDS + 3600] {
            for iat in [None, Some(now)] {
                let token = signed(&claims(exp, iat, None));
                assert!(
                    refusal(&token).contains("lives longer"),
                    "exp {exp} iat {iat:?}"
                );
            }
        }
        // Issued long ago with a long lifetime, even if its exp is near: refused by exp - iat.
        let old = signed(&claims(
            now + 60,
            Some(now - 2 * DEFAULT_MAX_LIFETIME_SECONDS),
            None,
        ));
        assert!(refusal(&old).contains("lives longer"));
        let auth = Auth::hs256(b"secret".to_vec());
        assert!(
            auth.issue("alice", false, DEFAULT_MAX_LIFETIME_SECONDS + 1)
                .is_err()
        );
        assert!(
            auth.verify(
                &auth
                    .issue("alice", false, DEFAULT_MAX_LIFETIME_SECONDS)
                    .unwrap()
            )
            .is_ok()
        );
    }

    #[test]
    fn gateway_group_claims_parse() {
        assert_eq!(groups_claim("[admin users]"), ["admin", "users"]);
        assert_eq!(groups_claim(r#"["admin"]"#), ["admin"]);
        assert!(groups_claim("").is_empty());
    }

    #[test]
    fn admins_come_from_the_claim_their_identity_provider_uses() {
        let claims = |pairs: &[(&str, &str)]| -> HashMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let default = GatewayClaims::default();
        for groups in [
            ("groups", "[admin]"),
            ("cognito:groups", "[admin staff]"),
            ("cognito:groups", r#"["admin"]"#),
        ] {
            let c = default.caller(&claims(&[("sub", "root"), groups])).unwrap();
            assert!(c.admin, "{groups:?}");
        }
        let customer = default
            .caller(&claims(&[("sub", "alice"), ("cognito:groups", "[staff]")]))
            .unwrap();
        assert!(!customer.admin);
        // A provider with its own claim and group names, set by the function's environment.
        let custom = GatewayClaims::from_env(Some(" roles "), Some("shop-admins"));
        assert!(
            custom
                .caller(&claims(&[("sub", "root"), ("roles", "[shop-admins]")]))
                .unwrap()
                .admin
        );
        assert!(
            !custom
                .caller(&claims(&[("sub", "root"), ("groups", "[admin]")]))
                .unwrap()
                .admin
        );
        assert!(
            default.caller(&claims(&[("groups", "[admin]")])).is_err(),
            "no sub"
        );
        assert_eq!(GatewayClaims::from_env(Some(""), None), default);
    }
}
