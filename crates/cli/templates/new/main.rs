//! The {{name}} binary: the API on 127.0.0.1 over the embedded engine (or a DynamoDB endpoint),
//! or, when `AWS_LAMBDA_RUNTIME_API` is set (Lambda sets it), the same Router as an AWS Lambda
//! function on real DynamoDB.

use monotable::Table;
use monotable::connect::Backend;
use monotable::connect::config::BackendChoice;

// `::` names the library crate, whatever its name: never an item of this file.
use ::__crate_name__ as app;

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Error> {
    if std::env::var_os("AWS_LAMBDA_RUNTIME_API").is_some() {
        return lambda().await;
    }
    local().await
}

/// On AWS Lambda: real DynamoDB, the table the template names (`TABLE_NAME`), and cursors sealed
/// with `MONOTABLE_CURSOR_SECRET`, the same for every instance of the function.
async fn lambda() -> Result<(), Error> {
    let secret = std::env::var("MONOTABLE_CURSOR_SECRET").unwrap_or_default();
    if secret.len() < 16 {
        return Err("MONOTABLE_CURSOR_SECRET must hold at least 16 characters".into());
    }
    let name = std::env::var("TABLE_NAME").unwrap_or_else(|_| app::TABLE_NAME.to_string());
    let dynamo = monotable::connect::connect(&Backend::Aws).await?;
    let table = Table::new(dynamo.client().clone(), name).cursor_secret(secret.as_bytes());
    lambda_http::run(app::router(table)).await
}

/// Locally: `AWS_ENDPOINT_URL_DYNAMODB` when set (DynamoDB Local, `monotable serve`), else the
/// embedded engine with its data in `MONOTABLE_DATA_DIR` (default `./.monotable`). The table is
/// created from the model when missing. `PORT` picks the port (default 3000).
async fn local() -> Result<(), Error> {
    let choice = BackendChoice {
        endpoint: std::env::var("AWS_ENDPOINT_URL_DYNAMODB").ok(),
        data_dir: std::env::var_os("MONOTABLE_DATA_DIR").map(Into::into),
        ..BackendChoice::default()
    };
    let backend = choice.resolve();
    let dynamo = monotable::connect::connect(&backend).await?;
    monotable::ensure_table(dynamo.client(), &app::model()?).await?;
    let table = Table::new(dynamo.client().clone(), app::TABLE_NAME);
    let port = match std::env::var("PORT") {
        Ok(port) => port.parse::<u16>()?,
        Err(_) => 3000,
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("{{name}} on http://{} ({backend})", listener.local_addr()?);
    axum::serve(listener, app::router(table))
        .with_graceful_shutdown(stopped())
        .await?;
    Ok(())
}

/// Ctrl-C or SIGTERM.
async fn stopped() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
