//! `serve`'s engine flags, the same for `monotable serve` and `monotable-shop serve`: where the
//! data lives, the address and the DynamoDB endpoint's port, `--auth`, who else may call
//! (`--cors-origin`, `--allow-host`), the listeners' limits, and capacity emulation.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use clap::Args;
use monotable_connect::capacity::Settings;
use monotable_connect::serve::{self, Guard, Limits};

use crate::auth::AuthArgs;
use crate::connection::DataArgs;

#[derive(Debug, Args)]
pub struct EngineArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Address to listen on. The default keeps every listener on this machine; anything else
    /// lets whoever reaches it call them (use --auth for the DynamoDB endpoint then).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "IP")]
    pub host: IpAddr,
    /// Port of the DynamoDB endpoint (0 picks a free one and prints it).
    #[arg(
        long,
        env = "MONOTABLE_DYNAMODB_PORT",
        default_value_t = 8000,
        value_name = "PORT"
    )]
    pub dynamodb_port: u16,
    #[command(flatten)]
    pub auth: AuthArgs,
    /// Let web pages from this origin call every listener (CORS), e.g. http://localhost:5173.
    /// Repeat for several. Pages from any other origin are refused.
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    pub cors_origins: Vec<String>,
    /// Accept this host name in the Host header besides loopback names and addresses (for a
    /// name that points at this machine). Repeat for several.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Connections each listener serves at once; more wait until one closes.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub max_connections: u32,
    /// Seconds a connection has to send a complete request head (also how long an idle
    /// kept-alive connection stays open).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), value_name = "SECONDS")]
    pub header_timeout: u64,
    /// Emulate DynamoDB's throughput limits on the embedded engine (per-partition limits,
    /// provisioned capacity and burst, on-demand scaling): requests over them fail as DynamoDB's
    /// do (ProvisionedThroughputExceededException), whichever listener they come through.
    /// GET /metrics reports what was consumed and throttled.
    #[arg(long, env = "MONOTABLE_CAPACITY", value_parser = clap::builder::BoolishValueParser::new())]
    pub capacity: bool,
    /// Divide every capacity limit by X, so a laptop can reach them (at 1000 a partition key
    /// takes 1 WCU/s and 3 RCU/s). Requires --capacity.
    #[arg(
        long,
        env = "MONOTABLE_CAPACITY_SCALE",
        default_value_t = 1.0,
        value_parser = parse_scale,
        requires = "capacity",
        value_name = "X"
    )]
    pub capacity_scale: f64,
}

fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        Ok(_) => Err("must be a number above 0".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

impl EngineArgs {
    /// The capacity emulator's settings, when --capacity asks for it.
    pub fn capacity(&self) -> Option<Settings> {
        self.capacity
            .then(|| Settings::default().scale(self.capacity_scale))
    }

    /// The limits every listener applies.
    pub fn limits(&self) -> Limits {
        Limits {
            header_timeout: Duration::from_secs(self.header_timeout),
            max_connections: usize::try_from(self.max_connections).unwrap_or(usize::MAX),
            ..Limits::default()
        }
    }

    /// The guard of a listener on --host: the allowed names and origins, preflights for
    /// `cors_methods`, refusals in the listener's error shape.
    pub fn guard(&self, cors_methods: &'static str, refuse: serve::guard::Refuse) -> Guard {
        Guard {
            listen: self.host,
            hosts: self.allow_hosts.clone(),
            origins: self.cors_origins.clone(),
            cors_methods,
            refuse,
        }
    }
}
