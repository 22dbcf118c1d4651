//! `--format sam`: an AWS SAM template for any model: the table, a managed policy granting only
//! the DynamoDB actions the model's patterns use ([`crate::policy_statements`]), and, when asked
//! ([`SamOptions::function`]), a function behind an HTTP API whose routes say which need a JWT.
//!
//! Each route is an event of the function: a protected route is checked by the API's JWT
//! authorizer, a public one has `Authorizer: NONE`, and a public catch-all `ANY /{proxy+}`
//! lets the function answer unknown paths and methods in its own error shape. With no routes
//! given, one protected `ANY /{proxy+}` takes everything.

use monotable_model::Model;

use crate::cloudformation::{
    TABLE_NAME_PARAMETER, TABLE_RESOURCE, description, index_arn, table_name_parameter,
    table_outputs, table_resource,
};
use crate::iam::{PolicyResource, policy_statements};
use crate::json::{Json, Object, get_att, pretty, reference, sub};
pub use crate::sam_options::{Architecture, FunctionOptions, Route, SamOptions};
use monotable_model::definition::table_definition;

/// Logical ID of the HTTP API.
pub const API_RESOURCE: &str = "HttpApi";
/// Name of the JWT authorizer (the API's default).
pub const AUTHORIZER_NAME: &str = "JwtAuthorizer";
/// Logical ID of the managed policy granting the model's DynamoDB actions.
pub const POLICY_RESOURCE: &str = "TableAccessPolicy";
/// The template parameter holding the cursor-sealing secret.
pub const CURSOR_SECRET_PARAMETER: &str = "CursorSecret";
/// The function's environment variable the app reads it from.
pub const CURSOR_SECRET_ENV: &str = "MONOTABLE_CURSOR_SECRET";

/// The routes an OpenAPI document declares: each path's operations, public when the operation's
/// `security` allows no credentials (an empty requirement `{}`), or when it has none and the
/// document has no top-level `security`. Not a document: no routes.
pub fn routes_from_openapi(document: &serde_json::Value) -> Vec<Route> {
    const METHODS: [&str; 7] = ["get", "put", "post", "patch", "delete", "head", "options"];
    let default_public = document
        .get("security")
        .and_then(|s| s.as_array())
        .is_none_or(|s| s.is_empty() || s.iter().any(is_empty_object));
    let Some(paths) = document.get("paths").and_then(|p| p.as_object()) else {
        return Vec::new();
    };
    let mut routes = Vec::new();
    for (path, item) in paths {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let public = match operation.get("security").and_then(|s| s.as_array()) {
                Some(requirements) => {
                    requirements.is_empty() || requirements.iter().any(is_empty_object)
                }
                None => default_public,
            };
            routes.push(Route {
                method: method.to_ascii_uppercase(),
                path: path.clone(),
                public,
            });
        }
    }
    routes
}

fn is_empty_object(value: &serde_json::Value) -> bool {
    value.as_object().is_some_and(serde_json::Map::is_empty)
}

fn policy_resource(model: &Model) -> Option<Json> {
    let statements: Vec<Json> = policy_statements(model)
        .into_iter()
        .map(|statement| {
            let resource = match &statement.resource {
                PolicyResource::Index(name) => index_arn(name),
                // `PolicyResource` is non-exhaustive: anything else is the table.
                _ => get_att(TABLE_RESOURCE, "Arn"),
            };
            Object::new()
                .with("Effect", "Allow")
                .with("Action", statement.actions)
                .with("Resource", resource)
                .into()
        })
        .collect();
    if statements.is_empty() {
        return None;
    }
    let document = Object::new()
        .with("Version", "2012-10-17")
        .with("Statement", statements);
    Some(
        Object::new()
            .with("Type", "AWS::IAM::ManagedPolicy")
            .with(
                "Properties",
                Object::new()
                    .with("Description", "The DynamoDB actions the model's access patterns use, on its table and indexes.")
                    .with("PolicyDocument", document),
            )
            .into(),
    )
}

/// An event's logical name from its route: `GET /products/{productId}` → `GetProductsProductId`.
fn event_name(route: &Route) -> String {
    let mut name = String::new();
    for word in std::iter::once(route.method.as_str()).chain(route.path.split('/')) {
        let mut chars = word.chars().filter(char::is_ascii_alphanumeric);
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars.map(|c| {
                if word.starts_with('{') {
                    c
                } else {
                    c.to_ascii_lowercase()
                }
            }));
        }
    }
    if name.is_empty() {
        "Route".into()
    } else {
        name
    }
}

fn events(function: &FunctionOptions) -> Object {
    let catch_all = |public: bool| Route {
        method: "ANY".into(),
        path: "/{proxy+}".into(),
        public,
    };
    let mut routes = function.routes.clone();
    let covered = |r: &Route| r.method == "ANY" && r.path == "/{proxy+}";
    if !routes.iter().any(covered) {
        routes.push(catch_all(!function.routes.is_empty()));
    }
    let mut events = Object::new();
    for route in &routes {
        let mut properties = Object::new()
            .with("ApiId", reference(API_RESOURCE))
            .with("Path", route.path.as_str())
            .with("Method", route.method.as_str());
        if route.public {
            properties.insert("Auth", Object::new().with("Authorizer", "NONE"));
        }
        events.insert(
            event_name(route),
            Object::new()
                .with("Type", "HttpApi")
                .with("Properties", properties),
        );
    }
    events
}

fn function_resource(function: &FunctionOptions, options: &SamOptions, has_policy: bool) -> Json {
    let mut properties = Object::new()
        .with(
            "Description",
            format!(
                "{}: an HTTP API over the single-table design.",
                function.name
            ),
        )
        .with("CodeUri", options.code_uri.as_str())
        .with("Handler", function.handler.as_str())
        .with("Runtime", "provided.al2023")
        .with("Architectures", vec![function.architecture.name()])
        .with("MemorySize", options.memory_size)
        .with("Timeout", options.timeout)
        .with(
            "Environment",
            Object::new().with(
                "Variables",
                Object::new()
                    .with(options.table_env_var.as_str(), reference(TABLE_RESOURCE))
                    .with(CURSOR_SECRET_ENV, reference(CURSOR_SECRET_PARAMETER)),
            ),
        );
    if has_policy {
        properties.insert("Policies", vec![reference(POLICY_RESOURCE)]);
    }
    properties.insert("Events", events(function));
    Object::new()
        .with("Type", "AWS::Serverless::Function")
        .with("Properties", properties)
        .into()
}

/// Whether any route (the implicit catch-all included) needs a JWT.
fn needs_authorizer(function: &FunctionOptions) -> bool {
    function.routes.is_empty() || function.routes.iter().any(|r| !r.public)
}

fn api_resource(authorizer: bool) -> Json {
    let mut properties = Object::new();
    if authorizer {
        let jwt = Object::new()
            .with("IdentitySource", "$request.header.Authorization")
            .with(
                "JwtConfiguration",
                Object::new()
                    .with("issuer", reference("JwtIssuer"))
                    .with("audience", reference("JwtAudience")),
            );
        properties.insert(
            "Auth",
            Object::new()
                .with("DefaultAuthorizer", AUTHORIZER_NAME)
                .with("Authorizers", Object::new().with(AUTHORIZER_NAME, jwt)),
        );
    }
    Object::new()
        .with("Type", "AWS::Serverless::HttpApi")
        .with("Properties", properties)
        .into()
}

/// The SAM template with default [`SamOptions`] (the table and its policy); see [`sam_with`].
pub fn sam(model: &Model) -> String {
    sam_with(model, &SamOptions::default())
}

fn parameters(
    definition: &monotable_model::definition::TableDefinition,
    options: &SamOptions,
) -> Object {
    let mut parameters = Object::new().with(TABLE_NAME_PARAMETER, table_name_parameter(definition));
    let Some(function) = &options.function else {
        return parameters;
    };
    if needs_authorizer(function) {
        parameters.insert(
            "JwtIssuer",
            Object::new().with("Type", "String").with(
                "Description",
                "Issuer URL of the JWTs the API accepts (e.g. https://cognito-idp.REGION.amazonaws.com/POOL_ID).",
            ),
        );
        parameters.insert(
            "JwtAudience",
            Object::new().with("Type", "CommaDelimitedList").with(
                "Description",
                "Accepted JWT audiences (aud claim or Cognito app client IDs), comma-separated.",
            ),
        );
    }
    parameters.insert(
        CURSOR_SECRET_PARAMETER,
        Object::new()
            .with("Type", "String")
            .with("NoEcho", true)
            .with("MinLength", 16u32)
            .with(
                "Description",
                "Secret (16+ characters) that seals pagination cursors; the same for every instance.",
            ),
    );
    parameters
}

/// The SAM template (JSON, pretty-printed, trailing newline, `Transform:
/// AWS::Serverless-2016-10-31`).
///
/// Always: the `TableName` parameter; the table exactly as in [`crate::cloudformation`]; the
/// managed policy [`POLICY_RESOURCE`] (when the model's patterns use any action); outputs
/// `TableName`, `TableArn` and `TableAccessPolicyArn`. With [`SamOptions::function`] also: the
/// function (`AWS::Serverless::Function`, `provided.al2023`, the table name in an environment
/// variable, the managed policy, one `HttpApi` event per route), the `HttpApi` with a JWT
/// authorizer when a route needs one (parameters `JwtIssuer`, `JwtAudience`), the
/// `CursorSecret` parameter, and outputs `ApiUrl` and `FunctionArn`. With a stream, each
/// consumer's function, role and failure destination ([`crate::consumers`]).
pub fn sam_with(model: &Model, options: &SamOptions) -> String {
    let definition = table_definition(model);
    let policy = policy_resource(model);
    let mut resources = Object::new().with(TABLE_RESOURCE, table_resource(&definition));
    let mut outputs = Object::new();
    if let Some(policy) = &policy {
        resources.insert(POLICY_RESOURCE, policy.clone());
    }
    if let Some(function) = &options.function {
        let id = function.logical_id();
        resources.insert(
            id.as_str(),
            function_resource(function, options, policy.is_some()),
        );
        resources.insert(API_RESOURCE, api_resource(needs_authorizer(function)));
        outputs.insert(
            "ApiUrl",
            Object::new().with("Description", "Base URL of the HTTP API.").with(
                "Value",
                sub(&format!(
                    "https://${{{API_RESOURCE}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}/"
                )),
            ),
        );
        outputs.insert(
            "FunctionArn",
            Object::new()
                .with("Description", "ARN of the function.")
                .with("Value", get_att(&id, "Arn")),
        );
    }
    crate::consumers::add(model, options, &mut resources, &mut outputs);
    table_outputs(&mut outputs, &definition);
    if policy.is_some() {
        outputs.insert(
            "TableAccessPolicyArn",
            Object::new()
                .with("Description", "Managed policy with the DynamoDB actions the model uses; attach it to any role that runs the app.")
                .with("Value", reference(POLICY_RESOURCE)),
        );
    }
    let what = match &options.function {
        Some(f) => format!("{} on Lambda over", f.name),
        None => "Infrastructure of".to_string(),
    };
    let template = Object::new()
        .with("AWSTemplateFormatVersion", "2010-09-09")
        .with("Transform", "AWS::Serverless-2016-10-31")
        .with(
            "Description",
            description(format!(
                "{what} DynamoDB table {} (generated by monotable export; edit the model, not this file).",
                definition.table_name
            )),
        )
        .with("Parameters", parameters(&definition, options))
        .with("Resources", resources)
        .with("Outputs", outputs);
    pretty(&template.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_follow_the_route() {
        let r = |m: &str, p: &str| Route {
            method: m.into(),
            path: p.into(),
            public: false,
        };
        assert_eq!(
            event_name(&r("GET", "/products/{productId}")),
            "GetProductsProductId"
        );
        assert_eq!(event_name(&r("ANY", "/{proxy+}")), "AnyProxy");
        assert_eq!(event_name(&r("PUT", "/users/{userId}")), "PutUsersUserId");
    }

    #[test]
    fn openapi_security_decides_which_routes_are_public() {
        let doc = serde_json::json!({
            "security": [{"bearer": []}],
            "paths": {
                "/products": {"get": {"security": [{}]}, "post": {}},
                "/orders": {"get": {"security": [{"bearer": []}]}},
            }
        });
        let routes = routes_from_openapi(&doc);
        let public: Vec<_> = routes
            .iter()
            .map(|r| (r.method.as_str(), r.path.as_str(), r.public))
            .collect();
        assert_eq!(
            public,
            [
                ("GET", "/orders", false),
                ("GET", "/products", true),
                ("POST", "/products", false)
            ]
        );
        assert!(routes_from_openapi(&serde_json::json!([])).is_empty());
    }
}
