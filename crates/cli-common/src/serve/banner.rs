//! What `serve` says once it is ready: the program and engine, where the data lives, the
//! DynamoDB endpoint, who may call it and how to connect, then the program's own lines (the
//! shop's API, its `/ui`, how to mint a token), capacity emulation, a warning beyond loopback,
//! and how long start-up took.

use std::io::Write;
use std::time::Instant;

use monotable_connect::DataLocation;
use monotable_connect::capacity::{PARTITION_READ_UNITS, PARTITION_WRITE_UNITS};

use super::Local;

/// The banner, built from a [`Local`] and printed once every listener is bound.
pub struct Banner {
    title: String,
    lines: Vec<(&'static str, String)>,
    tail: Vec<(&'static str, String)>,
    started: Instant,
}

impl Banner {
    pub(super) fn new(local: &Local, program: &str, what: &str, metrics_url: &str) -> Banner {
        let url = local.dynamodb_url();
        let auth = match &local.auth {
            Some(c) => format!(
                "SigV4 required (access key {}, region {}; clients set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and that region)",
                c.access_key, c.region
            ),
            None => "none: any program on this machine can read and write every table (--auth KEY:SECRET requires SigV4); web pages are refused".to_string(),
        };
        let args = local.args();
        let mut tail = Vec::new();
        if args.capacity {
            let scale = args.capacity_scale;
            tail.push((
                "capacity",
                format!(
                    "DynamoDB's throughput limits{} (a partition key: {} WCU/s, {} RCU/s); over them requests are throttled; metrics at {metrics_url}/metrics",
                    if scale == 1.0 {
                        String::new()
                    } else {
                        format!(" / {scale}")
                    },
                    PARTITION_WRITE_UNITS / scale,
                    PARTITION_READ_UNITS / scale,
                ),
            ));
        }
        if !args.host.is_loopback() {
            tail.push((
                "warning",
                format!(
                    "listening on {} — anyone who reaches it can call every listener",
                    args.host
                ),
            ));
        }
        Banner {
            title: format!(
                "{program} {} — {what} (dynoxide {})",
                env!("CARGO_PKG_VERSION"),
                monotable_connect::ENGINE_VERSION
            ),
            lines: vec![
                ("data", data_text(&local.location)),
                ("dynamodb", url.to_string()),
                ("auth", auth),
                (
                    "connect",
                    format!("aws dynamodb list-tables --endpoint-url {url}"),
                ),
            ],
            tail,
            started: local.started,
        }
    }

    /// A line of the program's own, after `connect`: `label` padded to the banner's column.
    pub fn line(mut self, label: &'static str, text: impl Into<String>) -> Banner {
        self.lines.push((label, text.into()));
        self
    }

    /// Print it on stdout, ending with `ready in N ms — Ctrl-C to stop`.
    pub fn print(self) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", self.title);
        for (label, text) in self.lines.iter().chain(&self.tail) {
            let _ = writeln!(out, "  {label:<9} {text}");
        }
        let _ = writeln!(
            out,
            "ready in {} ms — Ctrl-C to stop",
            self.started.elapsed().as_millis()
        );
        let _ = out.flush();
    }
}

/// Where the data lives, as the banner and the last line say it: the database file's absolute
/// path, or that nothing is kept.
pub fn data_text(location: &DataLocation) -> String {
    match location {
        DataLocation::Memory => "memory (nothing is kept after exit)".to_string(),
        DataLocation::Dir(dir) => std::path::absolute(dir)
            .unwrap_or_else(|_| dir.clone())
            .join(monotable_connect::DATABASE_FILE)
            .display()
            .to_string(),
    }
}
