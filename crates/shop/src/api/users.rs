//! `/users`: create or update a profile, read it, find it by email.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::{Body, Params, PathParam, require_admin};
use crate::Shop;
use crate::auth::Caller;
use crate::error::{ErrorBody, ShopError};
use crate::users::{self, User, UserInput};

/// Create or update a user's profile (self or admin).
#[utoipa::path(put, path = "/users/{userId}", tag = "users",
    params(("userId" = String, Path, description = "The user id (the token's `sub`)")),
    request_body = UserInput,
    responses(
        (status = 201, description = "Created", body = User),
        (status = 200, description = "Updated", body = User),
        (status = 400, description = "Invalid input", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Another user's profile", body = ErrorBody),
        (status = 409, description = "The email belongs to another user", body = ErrorBody),
    ))]
pub async fn put_user(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(user_id): PathParam<String>,
    Body(input): Body<UserInput>,
) -> Result<(StatusCode, Json<User>), ShopError> {
    if !caller.is_self_or_admin(&user_id) {
        return Err(ShopError::Forbidden(
            "you may only change your own profile".into(),
        ));
    }
    let (user, created) = users::put_user(&shop, &user_id, &input).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(user)))
}

/// Read a user's profile (self or admin).
#[utoipa::path(get, path = "/users/{userId}", tag = "users",
    params(("userId" = String, Path, description = "The user id")),
    responses(
        (status = 200, description = "The profile", body = User),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Another user's profile", body = ErrorBody),
        (status = 404, description = "No such user", body = ErrorBody),
    ))]
pub async fn get_user(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(user_id): PathParam<String>,
) -> Result<Json<User>, ShopError> {
    if !caller.is_self_or_admin(&user_id) {
        return Err(ShopError::Forbidden(
            "you may only read your own profile".into(),
        ));
    }
    users::get(&shop, &user_id)
        .await?
        .map(Json)
        .ok_or_else(|| ShopError::NotFound(format!("no user {user_id}")))
}

/// `GET /users` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct EmailQuery {
    /// The email, any case.
    pub email: String,
}

/// Find a user by email (admin).
#[utoipa::path(get, path = "/users", tag = "users", params(EmailQuery),
    responses(
        (status = 200, description = "The profile", body = User),
        (status = 400, description = "No email given", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
        (status = 404, description = "No user has this email", body = ErrorBody),
    ))]
pub async fn find_by_email(
    State(shop): State<Shop>,
    caller: Caller,
    Params(query): Params<EmailQuery>,
) -> Result<Json<User>, ShopError> {
    require_admin(&caller)?;
    users::find_by_email(&shop, &query.email)
        .await?
        .map(Json)
        .ok_or_else(|| ShopError::NotFound("no user has this email".into()))
}
