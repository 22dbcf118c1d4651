//! `monotable migrate OLD NEW`: the plan `diff` gives, run on the selected table. A dry run by
//! default; `--apply` writes. Ends with a summary and, after `--apply`, an audit of the table
//! against NEW; exits 1 when an item was left or the audit finds drift.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use monotable_migrate::apply::{self, ApplyOptions, ApplyProgress};
use monotable_migrate::diff;
use monotable_model::text::{escape, escape_json};

use crate::connection::ConnectionArgs;
use crate::input::{OutputFormat, read_model};

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The model the table holds today.
    old: PathBuf,
    /// The model to move it to.
    new: PathBuf,
    /// Write. Without it, a dry run scans the table and counts what it would do.
    #[arg(long)]
    apply: bool,
    /// Scan segments read and rewritten at once [default: 4; 1 on the embedded engine, whose
    /// segmented scan passes over its index for every page].
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=1000))]
    segments: Option<i32>,
    /// In-place rewrites sent together in one TransactWriteItems, 1 to 100 [default: 25 on the
    /// embedded engine; 1 elsewhere, since a transactional write costs DynamoDB twice the units].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=100))]
    batch: Option<u16>,
    /// Write units per second at most (table writes, estimated from item sizes), to leave
    /// capacity to the live app.
    #[arg(long, value_name = "WCU", value_parser = positive)]
    max_wcu: Option<f64>,
    /// Delete the indexes NEW drops (after the rewrite).
    #[arg(long)]
    remove_indexes: bool,
    /// Delete the items of entities NEW drops.
    #[arg(long)]
    delete_removed: bool,
    /// Ignore the checkpoint an interrupted run left, and scan from the start.
    #[arg(long)]
    restart: bool,
    /// Skip the audit against NEW at the end.
    #[arg(long)]
    no_audit: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    #[command(flatten)]
    connection: ConnectionArgs,
}

/// A finite number above zero.
fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!(
            "`{text}` is not a number of write units above zero"
        )),
    }
}

pub async fn run(args: MigrateArgs) -> anyhow::Result<ExitCode> {
    let json = args.format.is_json();
    let path = args.new.display().to_string();
    match migrate(&args).await {
        Ok(code) => Ok(code),
        Err(e) => crate::json_error(json, &path, e),
    }
}

fn progress_bar(
    progress: &Arc<ApplyProgress>,
    hidden: bool,
) -> (ProgressBar, tokio::task::JoinHandle<()>) {
    let bar = if hidden || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} items scanned, {msg} ({per_sec}, {eta} left)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (ticker, watched) = (bar.clone(), Arc::clone(progress));
    let task = tokio::spawn(async move {
        loop {
            ticker.set_length(watched.total.load(Ordering::Relaxed));
            ticker.set_position(watched.scanned.load(Ordering::Relaxed));
            ticker.set_message(format!(
                "{} written",
                watched.written.load(Ordering::Relaxed)
            ));
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    (bar, task)
}

async fn migrate(args: &MigrateArgs) -> anyhow::Result<ExitCode> {
    let old = read_model(&args.old, "nothing migrated")?;
    let new = read_model(&args.new, "nothing migrated")?;
    let (old, old_source, new, new_source) = (old.model, old.source, new.model, new.source);
    let d = diff::diff(&old, &new);
    if d.new_errors() > 0 {
        anyhow::bail!(
            "{} has {} error(s) `check` does not find in {}: `monotable diff` shows them; fix them before migrating",
            args.new.display(),
            d.new_errors(),
            args.old.display()
        );
    }
    let backend = args.connection.backend();
    let embedded = matches!(backend, monotable_connect::Backend::Embedded(_));
    let options = ApplyOptions {
        apply: args.apply,
        segments: args.segments.unwrap_or(if embedded { 1 } else { 4 }),
        batch: usize::from(args.batch.unwrap_or(if embedded { 25 } else { 1 })),
        max_wcu: args.max_wcu,
        remove_indexes: args.remove_indexes,
        delete_removed: args.delete_removed,
        migration_id: apply::checkpoint::migration_id(&old_source, &new_source),
        restart: args.restart,
    };
    let dynamo = monotable_connect::connect(&backend).await?;
    let client = dynamo.client();
    let progress = Arc::new(ApplyProgress::default());
    let (bar, ticker) = progress_bar(&progress, args.format.is_json());
    let result = apply::run(client, &old, &new, &d, &options, &progress).await;
    ticker.abort();
    bar.finish_and_clear();
    let summary = result?;
    let audit = if args.apply && !args.no_audit {
        let audit_options = monotable_migrate::audit::AuditOptions {
            segments: options.segments,
            ..Default::default()
        };
        let report = monotable_migrate::audit::audit(&new, client, &audit_options)
            .await
            .context("auditing the table against NEW")?;
        Some(report.with_source(&args.new.display().to_string(), &new_source))
    } else {
        None
    };
    let audit_clean = audit.as_ref().is_none_or(|a| !a.has_drift());
    match args.format {
        OutputFormat::Human => {
            let mut out = format!("plan ({} -> {}):\n", args.old.display(), args.new.display());
            for change in &d.changes {
                out.push_str(&format!("  {}\n", diff::describe(change)));
            }
            out.push('\n');
            out.push_str(&apply::render_human(&summary));
            if let Some(a) = &audit {
                out.push_str(&format!("\naudit against {}:\n", args.new.display()));
                out.push_str(&a.render(OutputFormat::Human.into()));
            }
            print!("{}", escape(&out));
        }
        OutputFormat::Json => {
            let mut doc = apply::render_json(&summary);
            if let (Some(a), Some(map)) = (&audit, doc.as_object_mut()) {
                let rendered = a.render(OutputFormat::Json.into());
                let value: serde_json::Value =
                    serde_json::from_str(&rendered).unwrap_or(serde_json::Value::Null);
                map.insert("audit".into(), value);
            }
            let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
            println!("{}", escape_json(&text));
        }
    }
    let ok = summary.dry_run || (summary.complete() && audit_clean);
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
