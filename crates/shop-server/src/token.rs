//! `monotable-shop token --user ID [--admin]`: a bearer token for the local shop API.

use std::process::ExitCode;

use clap::Args;
use monotable_shop::auth::Auth;

use monotable_cli_common::connection::DataArgs;

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The user id the token is for (its `sub`).
    #[arg(long, value_name = "ID")]
    user: String,
    /// Put the user in the `admin` group.
    #[arg(long)]
    admin: bool,
    /// Lifetime in seconds. `serve` refuses tokens that live longer than its
    /// --max-token-lifetime (24 hours unless raised).
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    ttl: u64,
    #[command(flatten)]
    data: DataArgs,
}

pub fn run(args: TokenArgs) -> anyhow::Result<ExitCode> {
    if args.data.in_memory {
        anyhow::bail!(
            "an in-memory `serve` makes a new secret each run; use --data-dir, or set MONOTABLE_JWT_SECRET for both"
        );
    }
    let (secret, _) = crate::secret::load(&args.data.location())?;
    let auth = Auth::Hs256 {
        secret,
        max_lifetime: args.ttl,
    };
    let token = auth.issue(&args.user, args.admin, args.ttl)?;
    println!("{token}");
    Ok(ExitCode::SUCCESS)
}
