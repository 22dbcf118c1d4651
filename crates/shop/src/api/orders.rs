//! `/users/{userId}/orders` and `/orders`: place, read, list and change orders.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::{Body, PageParams, Params, PathParam, limit, require_admin};
use crate::Shop;
use crate::auth::Caller;
use crate::error::{ErrorBody, ShopError};
use crate::orders::{self, NewOrder, Order, StatusChange};
use crate::products::PageBody;

/// Place an order (self). Prices come from the stored products; the total is computed here.
/// At most 49 lines (one DynamoDB transaction). With `Idempotency-Key`, a retry with the same
/// body returns the first order (header `Idempotent-Replayed: true`) and creates nothing.
#[utoipa::path(post, path = "/users/{userId}/orders", tag = "orders", request_body = NewOrder,
    params(
        ("userId" = String, Path, description = "Must be the caller"),
        ("Idempotency-Key" = Option<String>, Header, description = "1 to 128 visible ASCII characters; kept 24 h"),
    ),
    responses(
        (status = 201, description = "The order with its items", body = Order),
        (status = 400, description = "Invalid input, unknown product, more than 49 lines", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Not your account", body = ErrorBody),
        (status = 409, description = "Out of stock, unpublished product, or Idempotency-Key reused with another body", body = ErrorBody),
    ))]
pub async fn create(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(user_id): PathParam<String>,
    headers: HeaderMap,
    Body(order): Body<NewOrder>,
) -> Result<Response, ShopError> {
    if caller.user_id != user_id {
        return Err(ShopError::Forbidden(
            "you may only order for yourself".into(),
        ));
    }
    let key = match headers.get("idempotency-key") {
        Some(v) => Some(v.to_str().map_err(|_| {
            ShopError::invalid(
                "invalid_idempotency_key",
                "`Idempotency-Key` must be visible ASCII",
            )
        })?),
        None => None,
    };
    let created = orders::create(&shop, &user_id, &order, key).await?;
    let mut response = (StatusCode::CREATED, Json(created.order)).into_response();
    if created.replayed {
        response
            .headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    Ok(response)
}

/// A user's orders, newest first (self or admin).
#[utoipa::path(get, path = "/users/{userId}/orders", tag = "orders",
    params(("userId" = String, Path, description = "The user"), PageParams),
    responses(
        (status = 200, description = "A page of orders", body = PageBody<Order>),
        (status = 400, description = "Bad limit or cursor", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Another user's orders", body = ErrorBody),
    ))]
pub async fn list_for_user(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(user_id): PathParam<String>,
    Params(page): Params<PageParams>,
) -> Result<Json<PageBody<Order>>, ShopError> {
    if !caller.is_self_or_admin(&user_id) {
        return Err(ShopError::Forbidden(
            "you may only list your own orders".into(),
        ));
    }
    let limit = limit(page.limit)?;
    Ok(Json(
        orders::for_user(
            &shop,
            &user_id,
            limit,
            super::cursor(page.cursor.as_deref())?,
        )
        .await?,
    ))
}

/// An order with its items (owner or admin).
#[utoipa::path(get, path = "/orders/{orderId}", tag = "orders",
    params(("orderId" = String, Path, description = "ULID")),
    responses(
        (status = 200, description = "The order with its items", body = Order),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 404, description = "No such order, or not yours", body = ErrorBody),
    ))]
pub async fn get_order(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(order_id): PathParam<String>,
) -> Result<Json<Order>, ShopError> {
    Ok(Json(orders::get_for(&shop, &caller, &order_id).await?))
}

/// Change an order's status: the owner may cancel (from PENDING or PAID); an admin may make any
/// legal change (PENDING→PAID→SHIPPED→DELIVERED, PENDING|PAID→CANCELLED).
#[utoipa::path(patch, path = "/orders/{orderId}", tag = "orders", request_body = StatusChange,
    params(("orderId" = String, Path, description = "ULID")),
    responses(
        (status = 200, description = "The order", body = Order),
        (status = 400, description = "Invalid input", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Customers may only cancel", body = ErrorBody),
        (status = 404, description = "No such order, or not yours", body = ErrorBody),
        (status = 409, description = "Illegal transition or stale version; the message names the current status", body = ErrorBody),
    ))]
pub async fn change_status(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(order_id): PathParam<String>,
    Body(change): Body<StatusChange>,
) -> Result<Json<Order>, ShopError> {
    Ok(Json(
        orders::change_status(&shop, &caller, &order_id, &change).await?,
    ))
}

/// `GET /orders` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct OrdersQuery {
    /// Orders in this status.
    pub status: Option<orders::Status>,
    /// Inclusive start: a date (2026-12-01) or an RFC 3339 timestamp.
    pub from: Option<String>,
    /// Inclusive end: a date (the whole day) or an RFC 3339 timestamp.
    pub to: Option<String>,
    /// Items per page, 1 to 100 (default 20).
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

/// Orders by status (optionally within dates), or by date range across statuses; newest first
/// (admin). Give `status` (with optional `from`/`to`), or both `from` and `to`; `from` must not be
/// after `to`, and a range without `status` spans at most 93 days (the server's setting).
#[utoipa::path(get, path = "/orders", tag = "orders", params(OrdersQuery),
    responses(
        (status = 200, description = "A page of orders", body = PageBody<Order>),
        (status = 400, description = "Neither status nor from+to, a bad date, range or cursor", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
    ))]
pub async fn list(
    State(shop): State<Shop>,
    caller: Caller,
    Params(q): Params<OrdersQuery>,
) -> Result<Json<PageBody<Order>>, ShopError> {
    require_admin(&caller)?;
    let limit = limit(q.limit)?;
    let cursor = super::cursor(q.cursor.as_deref())?;
    match (&q.status, &q.from, &q.to) {
        (Some(status), from, to) => Ok(Json(
            orders::by_status(
                &shop,
                *status,
                from.as_deref(),
                to.as_deref(),
                limit,
                cursor,
            )
            .await?,
        )),
        (None, Some(from), Some(to)) => {
            Ok(Json(orders::by_date(&shop, from, to, limit, cursor).await?))
        }
        _ => Err(ShopError::invalid(
            "invalid_query",
            "give `status` (with optional `from`/`to`) or both `from` and `to`",
        )),
    }
}
