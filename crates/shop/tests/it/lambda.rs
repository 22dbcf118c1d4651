//! On Lambda the callers come from API Gateway's JWT authorizer: the verified claims in the
//! request context, not a bearer token the function checks itself.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use lambda_http::aws_lambda_events::apigw::ApiGatewayV2httpRequestContext;
use lambda_http::request::RequestContext;
use monotable_shop::Shop;
use monotable_shop::auth::Auth;
use serde_json::{Value, json};
use tower::ServiceExt;

fn context(claims: Value) -> RequestContext {
    let ctx: ApiGatewayV2httpRequestContext = serde_json::from_value(json!({
        "routeKey": "ANY /{proxy+}",
        "accountId": "123456789012",
        "stage": "$default",
        "requestId": "id",
        "apiId": "api",
        "domainName": "example.com",
        "domainPrefix": "example",
        "time": "02/Dec/2026:10:00:00 +0000",
        "timeEpoch": 0,
        "http": {"method": "GET", "path": "/", "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "test"},
        "authorizer": {"jwt": {"claims": claims, "scopes": null}}
    }))
    .expect("request context");
    RequestContext::ApiGatewayV2(ctx)
}

async fn call(
    router: &axum::Router,
    method: &str,
    path: &str,
    ctx: Option<RequestContext>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let mut req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    if let Some(ctx) = ctx {
        req.extensions_mut().insert(ctx);
    }
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn authorizer_claims_identify_the_caller() {
    let dynamo = monotable_connect::memory().unwrap();
    let model = monotable_shop::model().unwrap();
    monotable_access::table::ensure_table(dynamo.client(), &model)
        .await
        .unwrap();
    let shop = Shop::new(
        dynamo.client().clone(),
        model,
        Auth::LambdaAuthorizer(Default::default()),
        b"k".to_vec(),
    );
    let router = monotable_shop::api::router(shop);

    let alice = || Some(context(json!({"sub": "alice"})));
    let admin = || Some(context(json!({"sub": "ops", "groups": "[admin]"})));
    let (s, _) = call(
        &router,
        "PUT",
        "/users/alice",
        alice(),
        Some(json!({"name": "A", "email": "a@example.com"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, body) = call(&router, "GET", "/users/alice", alice(), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body["userId"], "alice");
    // No verified claims: 401, and a bearer header is not a way around the authorizer.
    let (s, _) = call(&router, "GET", "/users/alice", None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = call(
        &router,
        "GET",
        "/users/alice",
        Some(context(json!({"sub": "bob"}))),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    // API Gateway's rendering of a list claim makes an admin.
    let (s, body) = call(&router, "GET", "/users?email=A@EXAMPLE.COM", admin(), None).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    // Public routes need no claims.
    let (s, _) = call(&router, "GET", "/products?published=true", None, None).await;
    assert_eq!(s, StatusCode::OK);
}
