//! `--auth KEY:SECRET` and `--region`: the SigV4 credentials `serve`'s DynamoDB endpoint and
//! every route that reads table data beside it (`serve`'s `/ui` and `/metrics` key values,
//! `monotable ui`'s table view) ask for. The secret is never repeated in an error or in `--help`.

use clap::Args;
use monotable_connect::serve::sigv4::Credentials;

#[derive(Debug, Args)]
pub struct AuthArgs {
    /// Require SigV4 signatures (service dynamodb) made with this access key and secret from
    /// every caller of the DynamoDB endpoint and of every route that reads its tables (clients
    /// set AWS_ACCESS_KEY_ID=KEY and AWS_SECRET_ACCESS_KEY=SECRET). Prefer the environment
    /// variable: other users of this machine can read a command line (`ps`).
    #[arg(
        long,
        env = "MONOTABLE_DYNAMODB_AUTH",
        hide_env_values = true,
        value_name = "KEY:SECRET",
        value_parser = CredentialsParser
    )]
    auth: Option<Credentials>,
    /// The region --auth signatures must be scoped to; DynamoDB refuses a credential scoped to
    /// another. Defaults to AWS_REGION, then AWS_DEFAULT_REGION, then the AWS profile's region,
    /// then us-east-1: where the SDKs and monotable's own commands find theirs.
    #[arg(long, value_name = "REGION", value_parser = parse_region, requires = "auth")]
    region: Option<String>,
}

impl AuthArgs {
    /// The --auth credentials, scoped to --region or the environment's region.
    pub async fn credentials(&self) -> Option<Credentials> {
        let credentials = self.auth.clone()?;
        let region = match &self.region {
            Some(region) => region.clone(),
            None => monotable_connect::client::local_region_name().await,
        };
        Some(credentials.in_region(region))
    }
}

/// A region name: `us-east-1`, `eu-west-2`, `us-gov-west-1`.
fn parse_region(text: &str) -> Result<String, String> {
    let valid = (1..=32).contains(&text.len())
        && text.starts_with(|c: char| c.is_ascii_lowercase())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if valid {
        Ok(text.to_string())
    } else {
        Err("a region is lower-case letters, digits and hyphens, e.g. us-east-1".to_string())
    }
}

/// `--auth KEY:SECRET`, refused without repeating the value: clap's own error for a value it
/// cannot parse quotes it, and this one holds a secret.
#[derive(Clone)]
struct CredentialsParser;

impl clap::builder::TypedValueParser for CredentialsParser {
    type Value = Credentials;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Credentials, clap::Error> {
        let why = match value.to_str().map(str::parse::<Credentials>) {
            Some(Ok(credentials)) => return Ok(credentials),
            Some(Err(why)) => why,
            None => "it is not valid UTF-8".to_string(),
        };
        let arg = arg.map_or_else(|| "--auth".to_string(), ToString::to_string);
        let message =
            format!("invalid value for '{arg}' (not repeated here: it holds a secret): {why}\n");
        Err(clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(cmd))
    }
}
