//! The REST API: the axum Router, its extractors (JSON, query and path errors in the shop's
//! error format), and the OpenAPI document served at `/openapi.json`.

mod orders;
mod products;
mod users;

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use utoipa::OpenApi;

use axum::http::StatusCode;
use axum::response::Response;

use crate::Shop;
use crate::auth::Caller;
use crate::error::{ErrorBody, ErrorDetail, ShopError, TableMissing, error_response};

/// Page size when `limit` is not given.
pub const DEFAULT_LIMIT: i32 = 20;
/// Largest request body (axum's default limit).
pub const MAX_BODY: usize = 2 * 1024 * 1024;

/// The shop's Router: the same on `monotable-shop serve` and on Lambda. A handler that panics answers
/// 500 in the error shape (and the panic is logged); a wrong method is a 405 in the error shape;
/// a request that finds the table missing starts its recreation when the shop's options allow.
pub fn router(shop: Shop) -> Router {
    Router::new()
        .route("/users", get(users::find_by_email))
        .route(
            "/users/{user_id}",
            get(users::get_user).put(users::put_user),
        )
        .route(
            "/users/{user_id}/orders",
            get(orders::list_for_user).post(orders::create),
        )
        .route("/products", get(products::list).post(products::create))
        .route(
            "/products/{product_id}",
            get(products::get_product).patch(products::patch),
        )
        .route("/products/{product_id}/sales", get(products::sales))
        .route("/orders", get(orders::list))
        .route(
            "/orders/{order_id}",
            get(orders::get_order).patch(orders::change_status),
        )
        .route("/openapi.json", get(openapi_json))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            shop.clone(),
            recreate_missing_table,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
        .with_state(shop)
}

async fn not_found() -> ShopError {
    ShopError::NotFound("no such route; the API is described at /openapi.json".into())
}

async fn method_not_allowed() -> Response {
    error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method; the API is described at /openapi.json".into(),
    )
}

/// A handler panicked: log it, answer 500 in the error shape.
pub(crate) fn panicked(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message");
    tracing::error!(panic = what, "a request handler panicked");
    error_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "internal error; the server log has the details".into(),
    )
}

async fn recreate_missing_table(
    axum::extract::State(shop): axum::extract::State<Shop>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    if response.extensions().get::<TableMissing>().is_some() {
        shop.recreate_table_later();
    }
    response
}

#[cfg(test)]
mod tests {
    use axum::routing::get;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_panicking_handler_answers_500_in_the_error_shape() {
        async fn boom() -> &'static str {
            let empty: Vec<u8> = Vec::new();
            let _ = empty[usize::from(empty.is_empty())];
            "unreachable"
        }
        let router = axum::Router::new().route("/boom", get(boom)).layer(
            tower_http::catch_panic::CatchPanicLayer::custom(super::panicked),
        );
        let response = router
            .oneshot(
                axum::http::Request::get("/boom")
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), 500);
        let bytes = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["error"]["code"], "internal");
    }
}

/// A refusal in the shop's error shape, for the local server's guard.
pub fn refuse(status: StatusCode, code: &'static str, message: String) -> Response {
    error_response(status, code, message)
}

/// The body hyper's own answers to unreadable requests get on the shop's listener.
pub fn parse_error_body(status: u16) -> (&'static str, Vec<u8>) {
    let (code, message) = match status {
        414 => ("uri_too_long", "the request URI is too long"),
        431 => ("headers_too_large", "the request headers are too large"),
        _ => ("bad_request", "the request could not be read as HTTP/1.1"),
    };
    let body = ErrorBody {
        error: ErrorDetail {
            code: code.into(),
            message: message.into(),
        },
    };
    let json = serde_json::to_vec(&body).unwrap_or_default();
    ("application/json", json)
}

async fn openapi_json() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// The OpenAPI document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "monotable shop",
        description = "The seed tutorial's e-commerce backend on one DynamoDB table. Amounts are decimal strings; times are RFC 3339 UTC. Lists are paginated: pass `nextCursor` back as `cursor`.",
    ),
    paths(
        users::put_user, users::get_user, users::find_by_email,
        products::create, products::get_product, products::patch, products::list, products::sales,
        orders::create, orders::list_for_user, orders::get_order, orders::change_status, orders::list,
    ),
    components(schemas(
        crate::users::User, crate::users::UserInput,
        crate::products::Product, crate::products::NewProduct, crate::products::ProductPatch,
        crate::sales::SalesReport, crate::sales::DaySales,
        crate::orders::Order, crate::orders::OrderLine, crate::orders::NewOrder, crate::orders::NewLine,
        crate::orders::StatusChange, crate::orders::Status,
        crate::error::ErrorBody, crate::error::ErrorDetail,
    )),
    modifiers(&BearerAuth, &Rules, &CommonResponses),
    security(("bearer" = [])),
)]
pub struct ApiDoc;

/// States the input rules ([`crate::rules`]) on every property and parameter they govern.
struct Rules;

impl utoipa::Modify for Rules {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        crate::rules::apply(openapi);
    }
}

/// The answers every operation can give: 400 (every route checks its parameters), 413 for a
/// body over the limit, 414 and 431 for a request line or header block over the server's limit,
/// and 503 when DynamoDB is throttling, failing or busy.
struct CommonResponses;

impl utoipa::Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{Ref, RefOr, ResponseBuilder, content::ContentBuilder};
        let error = |description: &str| {
            RefOr::T(
                ResponseBuilder::new()
                    .description(description)
                    .content(
                        "application/json",
                        ContentBuilder::new()
                            .schema(Some(Ref::from_schema_name("ErrorBody")))
                            .build(),
                    )
                    .build(),
            )
        };
        let unavailable = || {
            let mut response =
                error("DynamoDB is throttling, failing or busy; retry after `Retry-After` seconds");
            if let RefOr::T(r) = &mut response {
                r.headers.insert(
                    "Retry-After".into(),
                    utoipa::openapi::header::HeaderBuilder::new()
                        .schema(
                            utoipa::openapi::ObjectBuilder::new()
                                .schema_type(utoipa::openapi::schema::Type::Integer),
                        )
                        .description(Some("Seconds to wait before retrying"))
                        .build(),
                );
            }
            response
        };
        for item in openapi.paths.paths.values_mut() {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                let responses = &mut operation.responses.responses;
                responses
                    .entry("400".into())
                    .or_insert_with(|| error("A parameter or the body breaks a rule stated here"));
                if operation.request_body.is_some() {
                    responses
                        .entry("413".into())
                        .or_insert_with(|| error("The body is larger than 2 MiB"));
                }
                responses
                    .entry("414".into())
                    .or_insert_with(|| error("The URI is longer than 64 KiB"));
                responses
                    .entry("431".into())
                    .or_insert_with(|| error("The request head is over 80 KiB or 100 headers"));
                responses.entry("503".into()).or_insert_with(unavailable);
            }
        }
    }
}

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// A JSON body; a malformed one is a 400 in the shop's format.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ShopError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ShopError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ShopError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ShopError::TooLarge(format!(
            "the body is larger than the {MAX_BODY} bytes the API accepts"
        ));
    }
    let message = match &rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "the body must be JSON with `Content-Type: application/json`".to_string()
        }
        other => format!("the body is not valid: {}", other.body_text()),
    };
    ShopError::invalid("invalid_body", message)
}

/// Query parameters; unknown or malformed ones are a 400.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ShopError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(q) => Ok(Params(q.0)),
            Err(e) => Err(query_error(e)),
        }
    }
}

fn query_error(e: QueryRejection) -> ShopError {
    ShopError::invalid(
        "invalid_query",
        format!("bad query parameters: {}", e.body_text()),
    )
}

/// Path parameters; a malformed one is a 400.
pub struct PathParam<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for PathParam<T> {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ShopError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(p) => Ok(PathParam(p.0)),
            Err(e) => Err(path_error(e)),
        }
    }
}

fn path_error(e: PathRejection) -> ShopError {
    ShopError::invalid("invalid_path", e.body_text())
}

/// The caller when the request carries credentials; a bad token is still a 401.
pub struct MaybeCaller(pub Option<Caller>);

impl FromRequestParts<Shop> for MaybeCaller {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, shop: &Shop) -> Result<Self, ShopError> {
        let has_credentials = parts
            .headers
            .contains_key(axum::http::header::AUTHORIZATION)
            || matches!(shop.auth(), crate::auth::Auth::LambdaAuthorizer(_));
        if !has_credentials {
            return Ok(MaybeCaller(None));
        }
        match Caller::from_request_parts(parts, shop).await {
            Ok(c) => Ok(MaybeCaller(Some(c))),
            Err(_) if matches!(shop.auth(), crate::auth::Auth::LambdaAuthorizer(_)) => {
                Ok(MaybeCaller(None))
            }
            Err(e) => Err(e),
        }
    }
}

/// `limit` and `cursor` of a listing.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PageParams {
    /// Items per page, 1 to 100 (default 20).
    pub limit: Option<i64>,
    /// `nextCursor` of the previous page, unchanged.
    pub cursor: Option<String>,
}

/// The page size asked for, checked.
pub fn limit(limit: Option<i64>) -> Result<i32, ShopError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(l) => i32::try_from(crate::rules::LIMIT.check(l)?).map_err(ShopError::internal),
    }
}

/// The cursor given, checked for its form (its content is checked when it is opened).
pub fn cursor(cursor: Option<&str>) -> Result<Option<&str>, ShopError> {
    cursor.map(|c| crate::rules::CURSOR.check(c)).transpose()
}

/// Admins only.
pub fn require_admin(caller: &Caller) -> Result<(), ShopError> {
    if caller.admin {
        Ok(())
    } else {
        Err(ShopError::Forbidden("this needs an admin".into()))
    }
}
