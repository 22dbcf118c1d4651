//! Users: profiles keyed by user id, with the email kept unique (case-insensitively) by a guard
//! item written in the same transaction as the user.

use monotable::unchecked::{Condition, Transaction, WriteAction};
use serde::Deserialize;

use crate::Shop;
pub use crate::entities::{EmailGuard, User};
use crate::error::ShopError;
use crate::patterns::{GetUser, GetUserIdByEmail};
use crate::rules;

/// How many times a write that lost a race is retried before answering 503.
const RETRIES: usize = 3;

/// The actions of a profile's transaction: the user created or replaced,
const SAVE_USER: &str = "saveUser";
/// the new email's guard created,
const CLAIM_EMAIL: &str = "claimEmail";
/// and, when the email changes, the old one's deleted (the model's `releaseEmail`).
const RELEASE_EMAIL: &str = "releaseEmail";

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
        let (user, tx) = match current {
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
                let tx = Transaction::new()
                    .push(SAVE_USER, WriteAction::create(&user))
                    .push(CLAIM_EMAIL, WriteAction::create(&user.guard()));
                (user, tx)
            }
            Some(old) => {
                let user = User {
                    name: name.clone(),
                    email: email.clone(),
                    email_lower: email_lower.clone(),
                    updated_at: now,
                    version: old.version + 1,
                    ..old.clone()
                };
                let mut tx =
                    Transaction::new().push(SAVE_USER, WriteAction::replace(&user, old.version));
                if old.email_lower != email_lower {
                    let mine = Condition::eq("userId", user_id.to_string());
                    let old_guard = EmailGuard::key_of(old.email_lower.clone());
                    tx = tx
                        .push(RELEASE_EMAIL, WriteAction::delete(old_guard, mine))
                        .push(CLAIM_EMAIL, WriteAction::create(&user.guard()));
                }
                (user, tx)
            }
        };
        match tx.send(shop.db()).await {
            Ok(()) => return Ok((user, created)),
            // The new guard is there: the email is someone else's.
            Err(e) if e.failed(CLAIM_EMAIL) => return Err(email_taken(&email)),
            // The user was created or changed meanwhile: read it again.
            Err(e) if e.failed(SAVE_USER) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ShopError::busy(
        "the profile kept changing while it was being saved; try again",
    ))
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
