//! `/products`: the catalogue (admins write, everyone reads published products).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::{Body, MaybeCaller, Params, PathParam, limit, require_admin};
use crate::Shop;
use crate::auth::Caller;
use crate::error::{ErrorBody, ShopError};
use crate::products::{self, NewProduct, PageBody, Product, ProductPatch};
use crate::sales::{self, SalesReport};

/// Create a product (admin).
#[utoipa::path(post, path = "/products", tag = "products", request_body = NewProduct,
    responses(
        (status = 201, description = "Created", body = Product),
        (status = 400, description = "Invalid input", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
    ))]
pub async fn create(
    State(shop): State<Shop>,
    caller: Caller,
    Body(input): Body<NewProduct>,
) -> Result<(StatusCode, Json<Product>), ShopError> {
    require_admin(&caller)?;
    Ok((
        StatusCode::CREATED,
        Json(products::create(&shop, &input).await?),
    ))
}

/// Read a product. Drafts (unpublished) are visible to admins only.
#[utoipa::path(get, path = "/products/{productId}", tag = "products", security(()),
    params(("productId" = String, Path, description = "ULID")),
    responses(
        (status = 200, description = "The product", body = Product),
        (status = 404, description = "No such (published) product", body = ErrorBody),
    ))]
pub async fn get_product(
    State(shop): State<Shop>,
    MaybeCaller(caller): MaybeCaller,
    PathParam(product_id): PathParam<String>,
) -> Result<Json<Product>, ShopError> {
    let admin = caller.is_some_and(|c| c.admin);
    match products::get(&shop, &product_id).await? {
        Some(p) if p.published || admin => Ok(Json(p)),
        _ => Err(ShopError::NotFound(format!("no product {product_id}"))),
    }
}

/// Change a product (admin). Only the fields given change.
#[utoipa::path(patch, path = "/products/{productId}", tag = "products", request_body = ProductPatch,
    params(("productId" = String, Path, description = "ULID")),
    responses(
        (status = 200, description = "The product", body = Product),
        (status = 400, description = "Invalid input", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
        (status = 404, description = "No such product", body = ErrorBody),
    ))]
pub async fn patch(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(product_id): PathParam<String>,
    Body(patch): Body<ProductPatch>,
) -> Result<Json<Product>, ShopError> {
    require_admin(&caller)?;
    Ok(Json(products::patch(&shop, &product_id, &patch).await?))
}

/// `GET /products` query: exactly one of `category` and `published=true`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Products in this category (drafts too, for admins).
    pub category: Option<String>,
    /// `true`: every published product (`false` is refused: drafts are listed by category).
    pub published: Option<bool>,
    /// Items per page, 1 to 100 (default 20).
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

/// List products by category, or every published product: give exactly one of `category` and
/// `published=true`. Drafts are listed for admins only.
#[utoipa::path(get, path = "/products", tag = "products", security(()), params(ListQuery),
    responses(
        (status = 200, description = "A page of products", body = PageBody<Product>),
        (status = 400, description = "Neither or both of category and published=true, or a bad cursor", body = ErrorBody),
    ))]
pub async fn list(
    State(shop): State<Shop>,
    MaybeCaller(caller): MaybeCaller,
    Params(query): Params<ListQuery>,
) -> Result<Json<PageBody<Product>>, ShopError> {
    let limit = limit(query.limit)?;
    let cursor = super::cursor(query.cursor.as_deref())?;
    match (&query.category, query.published) {
        (Some(category), None) => {
            let admin = caller.is_some_and(|c| c.admin);
            Ok(Json(
                products::by_category(&shop, category, admin, limit, cursor).await?,
            ))
        }
        (None, Some(true)) => Ok(Json(products::published(&shop, limit, cursor).await?)),
        _ => Err(ShopError::invalid(
            "invalid_query",
            "give exactly one of `category=C` and `published=true`",
        )),
    }
}

/// `GET /products/{productId}/sales` query: the range of days, both required.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SalesQuery {
    /// First day (a timestamp stands for its UTC day).
    pub from: String,
    /// Last day, inclusive; at most 366 days after `from`.
    pub to: String,
}

/// A product's sales per UTC day of its orders within `from..=to` (admin): units and revenue
/// per day that has any (a day without sales is absent) and their sums, read in one Query of the
/// aggregate the `productSales` stream consumer keeps, so the figures trail the orders by the
/// consumer's lag. An unknown product has no sales.
#[utoipa::path(get, path = "/products/{productId}/sales", tag = "products",
    params(("productId" = String, Path, description = "ULID"), SalesQuery),
    responses(
        (status = 200, description = "The product's sales", body = SalesReport),
        (status = 400, description = "A bad product id, date or range (from after to, over 366 days)", body = ErrorBody),
        (status = 401, description = "No or bad token", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
    ))]
pub async fn sales(
    State(shop): State<Shop>,
    caller: Caller,
    PathParam(product_id): PathParam<String>,
    Params(query): Params<SalesQuery>,
) -> Result<Json<SalesReport>, ShopError> {
    require_admin(&caller)?;
    Ok(Json(
        sales::between(&shop, &product_id, &query.from, &query.to).await?,
    ))
}
