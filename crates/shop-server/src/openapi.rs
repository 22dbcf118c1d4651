//! `monotable-shop openapi`: the shop's REST contract as OpenAPI JSON, the same document `serve`
//! answers at `/openapi.json` (for client generators, and for `monotable export --routes-from`).

use std::process::ExitCode;

use clap::Args;

#[derive(Debug, Args)]
pub struct OpenapiArgs {}

pub fn run(_args: OpenapiArgs) -> anyhow::Result<ExitCode> {
    use utoipa::OpenApi;
    let document = monotable_shop::api::ApiDoc::openapi();
    println!("{}", serde_json::to_string_pretty(&document)?);
    Ok(ExitCode::SUCCESS)
}
