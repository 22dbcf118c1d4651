//! The binary as the shop's AWS Lambda function (`bootstrap` on provided.al2023): real DynamoDB,
//! the table named by `TABLE_NAME`, callers from API Gateway's JWT authorizer.

use std::process::ExitCode;

use anyhow::{Context, bail};
use monotable_shop::Shop;
use monotable_shop::auth::Auth;

/// The variable naming the table (the SAM template sets it).
pub const TABLE_ENV: &str = "TABLE_NAME";
/// The secret that signs pagination cursors; the same for every instance of the function.
pub const CURSOR_SECRET_ENV: &str = "MONOTABLE_CURSOR_SECRET";

pub fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let mut model = monotable_shop::model().context("the shop's model does not parse")?;
    if let Ok(table) = std::env::var(TABLE_ENV) {
        model.table.name = table;
    }
    let secret = std::env::var(CURSOR_SECRET_ENV).unwrap_or_default();
    if secret.len() < crate::secret::MIN_SECRET_LEN {
        bail!(
            "{CURSOR_SECRET_ENV} must hold at least {} characters so every instance signs cursors alike",
            crate::secret::MIN_SECRET_LEN
        );
    }
    let dynamo = monotable_store::connect(&monotable_store::Backend::Aws).await?;
    let shop = Shop::new(
        dynamo.client().clone(),
        model,
        Auth::LambdaAuthorizer,
        Shop::cursor_key_from_secret(secret.as_bytes()),
    );
    monotable_shop::lambda::run(monotable_shop::api::router(shop))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))
}
