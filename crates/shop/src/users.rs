//! Users: profiles keyed by user id, with the email kept unique (case-insensitively) by a guard
//! item written in the same transaction as the user.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};
use serde::{Deserialize, Serialize};

use monotable_access::items::{self, Item, n, s};
use monotable_access::pattern;

use crate::Shop;
use crate::error::{ShopError, sdk};
use crate::rules;
use crate::time_util;

/// How many times a write that lost a race is retried before answering 409.
const RETRIES: usize = 3;

/// A user profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// The user id (the token's `sub`).
    pub user_id: String,
    /// Display name.
    pub name: String,
    /// Email as given; unique case-insensitively.
    pub email: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// RFC 3339 UTC.
    pub updated_at: String,
    /// Bumped by every change.
    pub version: i64,
}

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

fn from_item(item: &Item) -> Result<User, ShopError> {
    Ok(User {
        user_id: items::string(item, "userId")?,
        name: items::string(item, "name")?,
        email: items::string(item, "email")?,
        created_at: items::string(item, "createdAt")?,
        updated_at: items::string(item, "updatedAt")?,
        version: items::integer(item, "version")?,
    })
}

pub(crate) fn user_item(shop: &Shop, user: &User, email_lower: &str) -> Result<Item, ShopError> {
    let values = |name: &str| match name {
        "userId" => Some(user.user_id.clone()),
        "emailLower" => Some(email_lower.to_string()),
        _ => None,
    };
    let mut item = items::keys(shop.model(), "User", &values)?;
    item.extend([
        ("userId".into(), s(&user.user_id)),
        ("name".into(), s(&user.name)),
        ("email".into(), s(&user.email)),
        ("emailLower".into(), s(email_lower)),
        ("createdAt".into(), s(&user.created_at)),
        ("updatedAt".into(), s(&user.updated_at)),
        ("version".into(), n(user.version)),
    ]);
    Ok(item)
}

pub(crate) fn guard_item(shop: &Shop, user_id: &str, email_lower: &str) -> Result<Item, ShopError> {
    let values = |name: &str| match name {
        "userId" => Some(user_id.to_string()),
        "emailLower" => Some(email_lower.to_string()),
        _ => None,
    };
    let mut item = items::keys(shop.model(), "EmailGuard", &values)?;
    item.extend([
        ("userId".into(), s(user_id)),
        ("emailLower".into(), s(email_lower)),
    ]);
    Ok(item)
}

fn guard_key(shop: &Shop, email_lower: &str) -> Result<Item, ShopError> {
    Ok(items::primary_key(shop.model(), "EmailGuard", &|name| {
        (name == "emailLower").then(|| email_lower.to_string())
    })?)
}

async fn read(shop: &Shop, user_id: &str) -> Result<Option<(User, String)>, ShopError> {
    let item = pattern::get(shop.client(), shop.model(), "getUser", &|name| {
        (name == "userId").then(|| user_id.to_string())
    })
    .await?;
    match item {
        None => Ok(None),
        Some(item) => {
            let lower = items::string(&item, "emailLower")?;
            Ok(Some((from_item(&item)?, lower)))
        }
    }
}

/// The user `user_id`, if it exists.
pub async fn get(shop: &Shop, user_id: &str) -> Result<Option<User>, ShopError> {
    validate_user_id(user_id)?;
    Ok(read(shop, user_id).await?.map(|(u, _)| u))
}

/// The user whose email is `email` (case-insensitive), through the guard item.
pub async fn find_by_email(shop: &Shop, email: &str) -> Result<Option<User>, ShopError> {
    let lower = rules::EMAIL.check(email)?.to_lowercase();
    let guard = pattern::get(shop.client(), shop.model(), "getUserIdByEmail", &|name| {
        (name == "emailLower").then(|| lower.clone())
    })
    .await?;
    let Some(guard) = guard else { return Ok(None) };
    let user_id = items::string(&guard, "userId")?;
    get(shop, &user_id).await
}

fn put(
    item: Item,
    table: &str,
    condition: &str,
    values: HashMap<String, AttributeValue>,
) -> Result<TransactWriteItem, ShopError> {
    Ok(TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name(table)
                .set_item(Some(item))
                .condition_expression(condition)
                .set_expression_attribute_values((!values.is_empty()).then_some(values))
                .build()
                .map_err(ShopError::internal)?,
        )
        .build())
}

/// Which part of a transaction failed its condition, from the cancellation reasons.
pub(crate) fn failed_conditions<R>(
    e: &aws_sdk_dynamodb::error::SdkError<
        aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError,
        R,
    >,
) -> Option<Vec<bool>> {
    let service = e.as_service_error()?;
    let aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(tc) = service else {
        return None;
    };
    Some(
        tc.cancellation_reasons()
            .iter()
            .map(|r| r.code() == Some("ConditionalCheckFailed"))
            .collect(),
    )
}

/// Whether a transaction lost a race with another one on the same items (DynamoDB cancels it
/// with `TransactionConflict`, or refuses it while another is in progress): worth a retry.
pub(crate) fn is_transaction_conflict<R>(
    e: &aws_sdk_dynamodb::error::SdkError<
        aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError,
        R,
    >,
) -> bool {
    use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError as E;
    match e.as_service_error() {
        Some(E::TransactionCanceledException(tc)) => tc
            .cancellation_reasons()
            .iter()
            .any(|r| r.code() == Some("TransactionConflict")),
        Some(E::TransactionInProgressException(_)) => true,
        _ => false,
    }
}

/// A short pause before retrying a transaction that lost a race, longer each attempt.
pub(crate) async fn backoff(attempt: usize) {
    let millis = 5u64 << attempt.min(5);
    tokio::time::sleep(std::time::Duration::from_millis(
        millis + fastrand::u64(..=millis),
    ))
    .await;
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
    let (name, email, lower) = validate_input(input)?;
    let table = shop.table().to_string();
    for attempt in 0..RETRIES {
        let now = time_util::format_ts(shop.now());
        match read(shop, user_id).await? {
            None => {
                let user = User {
                    user_id: user_id.to_string(),
                    name: name.clone(),
                    email: email.clone(),
                    created_at: now.clone(),
                    updated_at: now,
                    version: 1,
                };
                let result = shop
                    .client()
                    .transact_write_items()
                    .transact_items(put(
                        user_item(shop, &user, &lower)?,
                        &table,
                        "attribute_not_exists(PK)",
                        HashMap::new(),
                    )?)
                    .transact_items(put(
                        guard_item(shop, user_id, &lower)?,
                        &table,
                        "attribute_not_exists(PK)",
                        HashMap::new(),
                    )?)
                    .send()
                    .await;
                match result {
                    Ok(_) => return Ok((user, true)),
                    Err(e) => match failed_conditions(&e).as_deref() {
                        Some([_, true]) => return Err(email_taken(&email)),
                        Some([true, _]) => continue, // created meanwhile: update it instead
                        _ if is_transaction_conflict(&e) => backoff(attempt).await,
                        _ => return Err(sdk("TransactWriteItems", e)),
                    },
                }
            }
            Some((old, old_lower)) => {
                let user = User {
                    name: name.clone(),
                    email: email.clone(),
                    updated_at: now,
                    version: old.version + 1,
                    ..old.clone()
                };
                let version_ok = HashMap::from([(":v".to_string(), n(old.version))]);
                let mut tx = shop.client().transact_write_items().transact_items(put(
                    user_item(shop, &user, &lower)?,
                    &table,
                    "version = :v",
                    version_ok,
                )?);
                if old_lower != lower {
                    tx = tx
                        .transact_items(
                            TransactWriteItem::builder()
                                .delete(
                                    Delete::builder()
                                        .table_name(&table)
                                        .set_key(Some(guard_key(shop, &old_lower)?))
                                        .condition_expression("userId = :me")
                                        .expression_attribute_values(":me", s(user_id))
                                        .build()
                                        .map_err(ShopError::internal)?,
                                )
                                .build(),
                        )
                        .transact_items(put(
                            guard_item(shop, user_id, &lower)?,
                            &table,
                            "attribute_not_exists(PK)",
                            HashMap::new(),
                        )?);
                }
                match tx.send().await {
                    Ok(_) => return Ok((user, false)),
                    Err(e) => match failed_conditions(&e).as_deref() {
                        Some([_, _, true]) => return Err(email_taken(&email)),
                        Some([true, ..]) => continue, // changed meanwhile: read again
                        _ if is_transaction_conflict(&e) => backoff(attempt).await,
                        _ => return Err(sdk("TransactWriteItems", e)),
                    },
                }
            }
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
