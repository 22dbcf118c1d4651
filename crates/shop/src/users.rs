//! Users: profiles keyed by user id, with the email kept unique (case-insensitively) by a guard
//! item written in the same transaction as the user.

use monotable::WriteError;
use serde::Deserialize;

use crate::Shop;
pub use crate::entities::{EmailGuard, User};
use crate::error::ShopError;
use crate::patterns::{
    ChangeEmail, ClaimEmail, CreateUser, GetUser, GetUserIdByEmail, RegisterUser, ReleaseEmail,
    ReplaceUser,
};
use crate::rules;

/// How many times a write that lost a race is retried before answering 503.
const RETRIES: usize = 3;

/// `PUT /users/{userId}` body.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserInput {
    /// 1 to 200 characters, not all white space; stored trimmed.
    pub name: String,
    /// An address like name@example.com: one `@`, a dot in the domain, no spaces, at most 254
    /// characters. Unique case-insensitively.
    pub email: String,
}

/// User ids: 1 to 128 of `A-Z a-z 0-9 . _ - : @` (no `#`, the key separator).
pub fn validate_user_id(id: &str) -> Result<(), ShopError> {
    rules::USER_ID.check(id).map(drop)
}

/// The name (trimmed), the email as given and the email lower-cased: the uniqueness key.
fn validate_input(input: &UserInput) -> Result<(String, String, String), ShopError> {
    let name = rules::NAME.check(&input.name)?.trim();
    let email = rules::EMAIL.check(&input.email)?;
    Ok((name.to_string(), email.to_string(), email.to_lowercase()))
}

/// The user `user_id`, if it exists.
pub async fn get(shop: &Shop, user_id: &str) -> Result<Option<User>, ShopError> {
    validate_user_id(user_id)?;
    let user_id = user_id.to_string();
    Ok(GetUser { user_id }.send(shop.db()).await?)
}

/// The user whose email is `email` (case-insensitive), through the guard item.
pub async fn find_by_email(shop: &Shop, email: &str) -> Result<Option<User>, ShopError> {
    let email_lower = rules::EMAIL.check(email)?.to_lowercase();
    let guard = GetUserIdByEmail { email_lower }.send(shop.db()).await?;
    match guard {
        Some(guard) => get(shop, &guard.user_id).await,
        None => Ok(None),
    }
}

/// Create or update the profile of `user_id`. Returns the user and whether it was created.
/// Taking an email another user has is a 409 `email_taken`; changing the email moves the guard
/// in the same transaction.
pub async fn put_user(
    shop: &Shop,
    user_id: &str,
    input: &UserInput,
) -> Result<(User, bool), ShopError> {
    validate_user_id(user_id)?;
    let (name, email, email_lower) = validate_input(input)?;
    for _ in 0..RETRIES {
        let now = shop.now();
        let current = GetUser {
            user_id: user_id.to_string(),
        }
        .send(shop.db())
        .await?;
        let created = current.is_none();
        let saved = match current {
            None => {
                let user = User {
                    user_id: user_id.to_string(),
                    name: name.clone(),
                    email: email.clone(),
                    email_lower: email_lower.clone(),
                    created_at: now,
                    updated_at: now,
                    version: 1,
                };
                let sent = RegisterUser::new()
                    .create_user(CreateUser { user: &user })
                    .claim_email(ClaimEmail {
                        email_guard: &user.guard(),
                    })
                    .send(shop.db())
                    .await;
                match sent {
                    Ok(()) => Saved::Done(user),
                    // The guard is there: the email is someone else's.
                    Err(e) if e.failed(RegisterUser::CLAIM_EMAIL) => Saved::EmailTaken,
                    // The user was created meanwhile: read it again.
                    Err(e) if e.failed(RegisterUser::CREATE_USER) => Saved::Raced,
                    Err(e) => return Err(e.into()),
                }
            }
            Some(old) => change(shop, old, &name, &email, &email_lower, now).await?,
        };
        match saved {
            Saved::Done(user) => return Ok((user, created)),
            Saved::EmailTaken => return Err(email_taken(&email)),
            Saved::Raced => continue,
        }
    }
    Err(ShopError::busy(
        "the profile kept changing while it was being saved; try again",
    ))
}

/// How one attempt to save a profile ended.
enum Saved {
    Done(User),
    EmailTaken,
    Raced,
}

/// `old` changed to `name` and `email`: one conditional put, or, when the email changes, the
/// model's `changeEmail` transaction that also moves the email's guard.
async fn change(
    shop: &Shop,
    old: User,
    name: &str,
    email: &str,
    email_lower: &str,
    now: time::OffsetDateTime,
) -> Result<Saved, ShopError> {
    let user = User {
        name: name.to_string(),
        email: email.to_string(),
        email_lower: email_lower.to_string(),
        updated_at: now,
        version: old.version + 1,
        ..old.clone()
    };
    let replace = ReplaceUser {
        user: &user,
        expected_version: old.version,
    };
    if old.email_lower == email_lower {
        return match replace.send(shop.db()).await {
            Ok(()) => Ok(Saved::Done(user)),
            Err(WriteError::VersionMismatch { .. } | WriteError::NotFound { .. }) => {
                Ok(Saved::Raced)
            }
            Err(e) => Err(e.into()),
        };
    }
    let sent = ChangeEmail::new()
        .replace_user(replace)
        .release_email(ReleaseEmail {
            email_lower: old.email_lower.clone(),
            owner: old.user_id.clone(),
        })
        .claim_email(ClaimEmail {
            email_guard: &user.guard(),
        })
        .send(shop.db())
        .await;
    match sent {
        Ok(()) => Ok(Saved::Done(user)),
        Err(e) if e.failed(ChangeEmail::CLAIM_EMAIL) => Ok(Saved::EmailTaken),
        Err(e) if e.failed(ChangeEmail::REPLACE_USER) => Ok(Saved::Raced),
        Err(e) => Err(e.into()),
    }
}

fn email_taken(email: &str) -> ShopError {
    ShopError::conflict(
        "email_taken",
        format!("another user already has the email {email}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_util;
    use monotable::Entity as _;

    #[test]
    fn users_keep_their_guard_in_step() {
        let t = time_util::now();
        let user = User {
            user_id: "u1".into(),
            name: "A".into(),
            email: "A@x.io".into(),
            email_lower: "a@x.io".into(),
            created_at: t,
            updated_at: t,
            version: 1,
        };
        let item = user.to_item();
        assert_eq!(User::from_item(&item).unwrap(), user);
        assert_eq!(
            user.guard().key().item(),
            EmailGuard::key_of("a@x.io").item()
        );
    }
}
