//! `--format sam`: an AWS SAM template with the table, the shop's Lambda function and its HTTP API.
//!
//! The function (`provided.al2023`, arm64, handler `bootstrap`, as `cargo lambda build` lays it
//! out) is reached through an HTTP API whose default authorizer checks JWTs, and its role grants
//! only the DynamoDB actions the model's patterns use ([`crate::policy_statements`]).

use monotable_model::Model;

use crate::cloudformation::{
    TABLE_NAME_PARAMETER, TABLE_RESOURCE, description, table_name_parameter, table_outputs,
    table_resource,
};
use crate::definition::table_definition;
use crate::iam::{PolicyResource, policy_statements};
use crate::json::{Json, Object, get_att, pretty, reference, sub};

/// Logical ID of the shop's function.
pub const FUNCTION_RESOURCE: &str = "ShopFunction";
/// Logical ID of the HTTP API.
pub const API_RESOURCE: &str = "HttpApi";
/// Name of the JWT authorizer (the API's default).
pub const AUTHORIZER_NAME: &str = "JwtAuthorizer";

/// Settings of the SAM export that the model does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SamOptions {
    /// The function's `CodeUri`: the directory holding the `bootstrap` binary, relative to the
    /// template. Default `target/lambda/monotable/` (`cargo lambda build --arm64` output).
    /// A literal rather than a template parameter, because `sam deploy` only uploads literal paths.
    pub code_uri: String,
    /// Environment variable carrying the table name to the function. Default `TABLE_NAME`.
    pub table_env_var: String,
    /// Memory in MB. Default 256.
    pub memory_size: u32,
    /// Timeout in seconds. Default 10 (an HTTP API waits at most 30).
    pub timeout: u32,
}

impl Default for SamOptions {
    fn default() -> Self {
        Self {
            code_uri: "target/lambda/monotable/".to_string(),
            table_env_var: "TABLE_NAME".to_string(),
            memory_size: 256,
            timeout: 10,
        }
    }
}

/// `Fn::Sub` text for a literal: `${` would start a substitution, `${!` is its escape.
fn sub_literal(text: &str) -> String {
    text.replace("${", "${!")
}

fn policy_document(model: &Model) -> Option<Json> {
    let statements: Vec<Json> = policy_statements(model)
        .into_iter()
        .map(|statement| {
            let resource = match &statement.resource {
                PolicyResource::Index(name) => sub(&format!(
                    "${{{TABLE_RESOURCE}.Arn}}/index/{}",
                    sub_literal(name)
                )),
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
    Some(
        Object::new()
            .with("Version", "2012-10-17")
            .with("Statement", statements)
            .into(),
    )
}

fn function_resource(model: &Model, options: &SamOptions) -> Json {
    let mut properties = Object::new()
        .with(
            "Description",
            "The shop: an HTTP API over the single-table design.",
        )
        .with("CodeUri", options.code_uri.as_str())
        .with("Handler", "bootstrap")
        .with("Runtime", "provided.al2023")
        .with("Architectures", vec!["arm64"])
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
    if let Some(document) = policy_document(model) {
        properties.insert("Policies", vec![document]);
    }
    properties.insert(
        "Events",
        Object::new().with(
            "Api",
            Object::new().with("Type", "HttpApi").with(
                "Properties",
                Object::new()
                    .with("ApiId", reference(API_RESOURCE))
                    .with("Path", "/{proxy+}")
                    .with("Method", "ANY"),
            ),
        ),
    );
    Object::new()
        .with("Type", "AWS::Serverless::Function")
        .with("Properties", properties)
        .into()
}

fn api_resource() -> Json {
    let authorizer = Object::new()
        .with("IdentitySource", "$request.header.Authorization")
        .with(
            "JwtConfiguration",
            Object::new()
                .with("issuer", reference("JwtIssuer"))
                .with("audience", reference("JwtAudience")),
        );
    Object::new()
        .with("Type", "AWS::Serverless::HttpApi")
        .with(
            "Properties",
            Object::new().with(
                "Auth",
                Object::new()
                    .with("DefaultAuthorizer", AUTHORIZER_NAME)
                    .with(
                        "Authorizers",
                        Object::new().with(AUTHORIZER_NAME, authorizer),
                    ),
            ),
        )
        .into()
}

/// The SAM template with default [`SamOptions`]; see [`sam_with`].
pub fn sam(model: &Model) -> String {
    sam_with(model, &SamOptions::default())
}

/// The template parameter holding the cursor-signing secret.
pub const CURSOR_SECRET_PARAMETER: &str = "CursorSecret";
/// The function's environment variable the shop reads it from.
pub const CURSOR_SECRET_ENV: &str = "MONOTABLE_CURSOR_SECRET";

/// The SAM template (JSON, pretty-printed, trailing newline, `Transform:
/// AWS::Serverless-2016-10-31`).
///
/// Parameters: `TableName` (default the model's), `JwtIssuer`, `JwtAudience` (comma-separated),
/// `CursorSecret` (signs pagination cursors; passed as `MONOTABLE_CURSOR_SECRET`).
/// Resources: the table exactly as in [`crate::cloudformation`]; `ShopFunction`
/// (`AWS::Serverless::Function`: `provided.al2023`, `arm64`, handler `bootstrap`, the table name
/// in an environment variable, an inline policy from [`crate::policy_statements`], an `HttpApi`
/// event `ANY /{proxy+}`); `HttpApi` (`AWS::Serverless::HttpApi` whose default authorizer is a JWT
/// authorizer on the `Authorization` header). Outputs: `ApiUrl`, `FunctionArn`, `TableName`,
/// `TableArn`.
pub fn sam_with(model: &Model, options: &SamOptions) -> String {
    let definition = table_definition(model);
    let parameters = Object::new()
        .with(TABLE_NAME_PARAMETER, table_name_parameter(&definition))
        .with(
            "JwtIssuer",
            Object::new().with("Type", "String").with(
                "Description",
                "Issuer URL of the JWTs the API accepts (e.g. https://cognito-idp.REGION.amazonaws.com/POOL_ID).",
            ),
        )
        .with(
            "JwtAudience",
            Object::new().with("Type", "CommaDelimitedList").with(
                "Description",
                "Accepted JWT audiences (aud claim or Cognito app client IDs), comma-separated.",
            ),
        )
        .with(
            CURSOR_SECRET_PARAMETER,
            Object::new()
                .with("Type", "String")
                .with("NoEcho", true)
                .with("MinLength", 16u32)
                .with(
                    "Description",
                    "Secret (16+ characters) that signs pagination cursors; the same for every instance.",
                ),
        );
    let resources = Object::new()
        .with(TABLE_RESOURCE, table_resource(&definition))
        .with(FUNCTION_RESOURCE, function_resource(model, options))
        .with(API_RESOURCE, api_resource());
    let mut outputs = Object::new()
        .with(
            "ApiUrl",
            Object::new()
                .with("Description", "Base URL of the HTTP API.")
                .with(
                    "Value",
                    sub(&format!(
                        "https://${{{API_RESOURCE}}}.execute-api.${{AWS::Region}}.${{AWS::URLSuffix}}/"
                    )),
                ),
        )
        .with(
            "FunctionArn",
            Object::new()
                .with("Description", "ARN of the shop's Lambda function.")
                .with("Value", get_att(FUNCTION_RESOURCE, "Arn")),
        );
    table_outputs(&mut outputs);
    let template = Object::new()
        .with("AWSTemplateFormatVersion", "2010-09-09")
        .with("Transform", "AWS::Serverless-2016-10-31")
        .with(
            "Description",
            description(format!(
                "The shop on Lambda over DynamoDB table {} (generated by monotable export; edit the model, not this file).",
                definition.table_name
            )),
        )
        .with("Parameters", parameters)
        .with("Resources", resources)
        .with("Outputs", outputs);
    pretty(&template.into())
}
