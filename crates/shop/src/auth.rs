//! Who is calling: bearer JWTs (`sub` is the user id; `admin` in the `groups` claim makes an
//! admin), verified with HS256 locally, or taken from API Gateway's JWT authorizer on Lambda.

use std::collections::HashMap;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::Shop;
use crate::error::ShopError;

/// The group that makes a caller an admin.
pub const ADMIN_GROUP: &str = "admin";

/// How callers are authenticated.
#[derive(Clone)]
pub enum Auth {
    /// Verify `Authorization: Bearer` tokens signed with this HS256 secret (local `serve`).
    Hs256 {
        /// The shared secret.
        secret: Vec<u8>,
    },
    /// Trust the claims API Gateway's JWT authorizer verified and put in the request context.
    LambdaAuthorizer,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Auth::Hs256 { .. } => f.write_str("Hs256 { secret: <hidden> }"),
            Auth::LambdaAuthorizer => f.write_str("LambdaAuthorizer"),
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
    #[serde(default)]
    groups: Vec<String>,
}

impl Auth {
    /// Sign a token for `user_id` valid for `ttl_seconds` (HS256 only).
    pub fn issue(&self, user_id: &str, admin: bool, ttl_seconds: u64) -> Result<String, ShopError> {
        let Auth::Hs256 { secret } = self else {
            return Err(ShopError::internal(
                "tokens are issued by your identity provider on Lambda",
            ));
        };
        crate::users::validate_user_id(user_id)?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(ShopError::internal)?
            .as_secs();
        let claims = Claims {
            sub: user_id.to_string(),
            exp: now + ttl_seconds,
            iat: Some(now),
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
        let Auth::Hs256 { secret } = self else {
            return Err(ShopError::Unauthenticated(
                "no verified claims in the request context".into(),
            ));
        };
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 30;
        validation.set_required_spec_claims(&["exp", "sub"]);
        let data =
            jsonwebtoken::decode::<Claims>(token, &DecodingKey::from_secret(secret), &validation)
                .map_err(|e| {
                let why = match e.kind() {
                    jsonwebtoken::errors::ErrorKind::ExpiredSignature => "the token has expired",
                    jsonwebtoken::errors::ErrorKind::InvalidSignature => {
                        "the token's signature is wrong"
                    }
                    _ => "the token is not a valid HS256 JWT with `sub` and `exp`",
                };
                ShopError::Unauthenticated(why.into())
            })?;
        caller(
            &data.claims.sub,
            data.claims.groups.iter().map(String::as_str),
        )
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
        if let Auth::LambdaAuthorizer = shop.auth() {
            let claims = lambda_claims(parts).ok_or_else(|| {
                ShopError::Unauthenticated("no verified JWT claims in the request context".into())
            })?;
            let sub = claims
                .get("sub")
                .ok_or_else(|| ShopError::Unauthenticated("the token has no `sub`".into()))?;
            let groups = claims
                .get("groups")
                .map(|g| groups_claim(g))
                .unwrap_or_default();
            return caller(sub, groups.iter().map(String::as_str));
        }
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .ok_or_else(|| {
                ShopError::Unauthenticated(
                    "missing `Authorization: Bearer <token>` (make one with `monotable token --user ID`)"
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
        shop.auth().verify(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_verify_and_others_do_not() {
        let auth = Auth::Hs256 {
            secret: b"secret".to_vec(),
        };
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
        let other = Auth::Hs256 {
            secret: b"other".to_vec(),
        };
        assert_eq!(other.verify(&token).unwrap_err().code(), "unauthenticated");
        assert!(auth.verify("not.a.token").is_err());
    }

    #[test]
    fn expired_tokens_are_refused() {
        let auth = Auth::Hs256 {
            secret: b"secret".to_vec(),
        };
        let claims = Claims {
            sub: "alice".into(),
            exp: 1_000,
            iat: None,
            groups: vec![],
        };
        let token = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(b"secret"),
        )
        .unwrap();
        assert!(
            auth.verify(&token)
                .unwrap_err()
                .to_string()
                .contains("expired")
        );
    }

    #[test]
    fn gateway_group_claims_parse() {
        assert_eq!(groups_claim("[admin users]"), ["admin", "users"]);
        assert_eq!(groups_claim(r#"["admin"]"#), ["admin"]);
        assert!(groups_claim("").is_empty());
    }
}
