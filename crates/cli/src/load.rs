//! `monotable load MODEL`: drive the model's `[traffic]` against a table and report whether the
//! design carries it. By default an in-memory embedded engine with the capacity emulator on
//! (the dataset loaded before it is switched on); with --endpoint or --aws, that DynamoDB, where
//! throttles are only what it reports. Exit status 0 when every pattern and entity reached its
//! target within --margin, 1 when one fell short, 2 when no run could be made.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use monotable_connect::capacity::{MetricsSnapshot, ResourceMetrics, Settings};
use monotable_connect::{Backend, Dynamo, Engine};
use monotable_model::text::{escape, escape_json};
use monotable_verify::load::report::{LoadReport, Meta};
use monotable_verify::load::{self, LoadOptions, LoadProgress, Plan, Probe};

use crate::connection::RemoteArgs;
use crate::input::{OutputFormat, read_model};

/// No run was made: bad usage, an invalid model, no traffic, DynamoDB unreachable.
const TROUBLE: u8 = 2;
/// Partition keys per table and index the emulator reports: enough that the streams' hot
/// partitions are among them.
const HOT_KEYS: usize = 1000;

#[derive(Debug, Args)]
pub struct LoadArgs {
    /// The model file; its [traffic] section says what to drive.
    model: PathBuf,
    /// How long to drive the traffic: 500ms, 10s, 2m, 1m30s (a bare number is seconds).
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    duration: Duration,
    /// Multiply every rate of the model by this.
    #[arg(long, default_value_t = 1.0, value_parser = positive)]
    scale: f64,
    /// Divide the capacity emulator's limits (partition, table, on-demand) by this, so a
    /// laptop reaches them. Embedded engine only.
    #[arg(long, value_parser = positive)]
    capacity_scale: Option<f64>,
    /// The shortfall a pattern or entity may have before the run fails: 10%, 0.5% (a bare
    /// number is a percentage).
    #[arg(long, default_value = "10%", value_parser = parse_margin)]
    margin: f64,
    /// Most requests in flight at once; a request due past it is dropped (and counts short).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    concurrency: u32,
    /// The same seed loads the same dataset and draws the same parameters and fresh items.
    #[arg(long, default_value_t = monotable_verify::DEFAULT_SEED)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Also draw throughput and throttles per second over time as an SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// No progress display (it is drawn only when stderr is a terminal anyway).
    #[arg(long)]
    quiet: bool,
    /// Drive this file's `[traffic]` instead of the model's own, patterns and entities matched by
    /// name: two designs compared at the same traffic (a model file, or a file holding only a
    /// `[traffic]` table).
    #[arg(long, value_name = "FILE")]
    traffic: Option<PathBuf>,
    #[command(flatten)]
    remote: RemoteArgs,
}

/// The model in `source` with the `[traffic]` table of `file` in place of its own.
fn with_traffic(source: &str, file: &std::path::Path) -> anyhow::Result<monotable_model::Model> {
    let shown = file.display();
    let text = crate::input::read(file, crate::input::MODEL)
        .with_context(|| format!("cannot read traffic {shown}"))?;
    let other: toml::Table =
        toml::from_str(&text).with_context(|| format!("{shown} is not TOML"))?;
    let Some(traffic) = other.get("traffic") else {
        bail!("{shown} has no [traffic] table");
    };
    let mut model: toml::Table = toml::from_str(source).context("the model is not TOML")?;
    model.insert("traffic".to_string(), traffic.clone());
    let combined = toml::to_string(&model).context("cannot write the model back as TOML")?;
    monotable_model::parse(&combined)
        .map_err(|e| anyhow::anyhow!("the model with the traffic of {shown} is not valid: {e}"))
}

pub async fn run(args: LoadArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    let json = args.format.is_json();
    let report = match load(&args, &path).await {
        Ok(report) => report,
        Err(e) => return Ok(crate::failed(json, &path, &e, ExitCode::from(TROUBLE))),
    };
    if let Some(file) = &args.plot {
        std::fs::write(file, load::plot::svg(&report))
            .with_context(|| format!("cannot write the plot to {}", file.display()))?;
    }
    match args.format {
        OutputFormat::Human => print!("{}", escape(&report.render_human())),
        OutputFormat::Json => print!("{}", escape_json(&report.render_json())),
    }
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn load(args: &LoadArgs, path: &str) -> anyhow::Result<LoadReport> {
    let backend = args.remote.backend_or_memory();
    let embedded = matches!(backend, Backend::Embedded(_));
    if !embedded && args.capacity_scale.is_some() {
        bail!(
            "--capacity-scale sets the embedded engine's capacity emulator; --endpoint and --aws have none"
        );
    }
    let file = read_model(&args.model, "nothing run")?;
    let model = match &args.traffic {
        Some(traffic) => Arc::new(with_traffic(&file.source, traffic)?),
        None => Arc::new(file.model),
    };
    let plan = load::plan(&model, args.scale).with_context(|| path.to_string())?;
    let capacity_scale = args.capacity_scale.unwrap_or(1.0);
    // The dataset goes in through a client without the emulator; the run's client has it.
    let (dynamo, work, emulator) = if embedded {
        let engine = Engine::memory()?;
        let loading = Dynamo::embedded(engine.clone());
        let work = load::prepare(&model, loading.client(), &plan, args.seed).await?;
        let settings = Settings {
            hot_keys: HOT_KEYS,
            ..Settings::default()
        }
        .scale(capacity_scale);
        let emulated = Dynamo::embedded(engine.with_capacity(settings));
        let emulator = emulated.engine().and_then(|e| e.capacity()).cloned();
        (emulated, work, emulator)
    } else {
        let dynamo = monotable_connect::connect(&backend).await?;
        dynamo.ping().await?;
        let work = load::prepare(&model, dynamo.client(), &plan, args.seed)
            .await
            .with_context(|| {
                format!(
                    "loading the dataset into `{}` on {backend}",
                    model.table.name
                )
            })?;
        (dynamo, work, None)
    };
    let options = LoadOptions {
        duration: args.duration,
        concurrency: args.concurrency as usize,
        seed: args.seed,
        ..LoadOptions::default()
    };
    let probe: Option<Probe> = emulator.clone().map(|e| {
        let probe: Probe = Arc::new(move || throttled_attempts(&e.snapshot()));
        probe
    });
    let display = Display::new(&plan, args.duration, args.quiet);
    let on_progress = {
        let display = display.clone();
        Box::new(move |p: &[LoadProgress]| display.update(p))
    };
    let measured = load::run(
        Arc::clone(&model),
        dynamo.client().clone(),
        &plan,
        &work,
        &options,
        probe,
        on_progress,
    )
    .await;
    display.finish();
    let resources = emulator
        .as_deref()
        .map(|e| resources(&e.snapshot(), &model.table.name))
        .unwrap_or_default();
    let meta = Meta {
        model: path.to_string(),
        table: model.table.name.clone(),
        backend: if embedded {
            "the embedded engine (in memory)".to_string()
        } else {
            backend.to_string()
        },
        capacity_scale: emulator.as_ref().map(|_| capacity_scale),
        scale: args.scale,
        margin: args.margin,
        concurrency: options.concurrency,
        seed: args.seed,
    };
    let per_second = measured.probe_per_second.clone();
    Ok(LoadReport::build(
        meta, &plan, &measured, resources, per_second,
    ))
}

/// Every throttled attempt the emulator counted, reads and writes, on every table and index.
fn throttled_attempts(snapshot: &MetricsSnapshot) -> u64 {
    snapshot
        .resources
        .iter()
        .map(|r| r.throttled_reads + r.throttled_writes)
        .sum()
}

/// `table`'s and its indexes' consumption, as the report takes it.
fn resources(snapshot: &MetricsSnapshot, table: &str) -> Vec<ResourceMetrics> {
    snapshot
        .resources
        .iter()
        .filter(|r| r.table == table)
        .cloned()
        .collect()
}

/// One progress bar per stream on stderr (drawn only when it is a terminal): successes against
/// the planned count, the achieved rate and the throttles so far.
#[derive(Clone)]
struct Display {
    bars: Arc<Vec<ProgressBar>>,
}

impl Display {
    fn new(plan: &Plan, duration: Duration, quiet: bool) -> Display {
        let multi = MultiProgress::with_draw_target(if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        });
        let width = plan.streams.iter().map(|s| s.name.len()).max().unwrap_or(8);
        let style =
            ProgressStyle::with_template(&format!("{{prefix:<{}}} {{bar:24}} {{msg}}", width + 6))
                .unwrap_or_else(|_| ProgressStyle::default_bar());
        let bars = plan
            .streams
            .iter()
            .map(|s| {
                let total = (s.target * duration.as_secs_f64()).ceil() as u64;
                let bar = multi.add(ProgressBar::new(total.max(1)));
                bar.set_style(style.clone());
                let kind = match s.kind {
                    load::Kind::Read => "read",
                    load::Kind::Write => "write",
                };
                bar.set_prefix(format!("{kind} {}", s.name));
                bar
            })
            .collect();
        Display {
            bars: Arc::new(bars),
        }
    }

    fn update(&self, progress: &[LoadProgress]) {
        for (bar, p) in self.bars.iter().zip(progress) {
            bar.set_position(p.ok);
            bar.set_message(format!(
                "{:.1}/{:.1} per s, {} throttled",
                p.achieved, p.target, p.throttled
            ));
        }
    }

    fn finish(&self) {
        for bar in self.bars.iter() {
            bar.finish_and_clear();
        }
    }
}

/// `500ms`, `10s`, `2m`, `1h`, `1m30s`, or a bare number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let mut total = Duration::ZERO;
    let mut rest = text;
    if let Ok(secs) = text.parse::<f64>() {
        total = Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())?;
        rest = "";
    } else if rest.is_empty() {
        return Err("an empty duration".to_string());
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(|| format!("`{text}`: a number needs a unit (ms, s, m, h)"))?;
        let (number, tail) = rest.split_at(digits);
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let value: f64 = number
            .parse()
            .map_err(|_| format!("`{text}`: `{number}` is not a number"))?;
        let seconds = match unit.trim() {
            "ms" => value / 1000.0,
            "s" | "sec" | "secs" => value,
            "m" | "min" | "mins" => value * 60.0,
            "h" => value * 3600.0,
            other => return Err(format!("`{text}`: unknown unit `{other}` (ms, s, m, h)")),
        };
        total += Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())?;
        rest = tail;
    }
    if total.is_zero() {
        return Err("the duration must be more than 0".to_string());
    }
    Ok(total)
}

/// `10%`, `0.5%` or `10` (a percentage) as a fraction.
fn parse_margin(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%').trim();
    let percent: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a percentage"))?;
    if !(0.0..=100.0).contains(&percent) {
        return Err(format!("`{text}`: a margin is 0 to 100 %"));
    }
    Ok(percent / 100.0)
}

fn positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a number above 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        for bad in ["", "10x", "s", "0s", "0", "-1", "5 parsecs"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn margins() {
        assert_eq!(parse_margin("10%"), Ok(0.1));
        assert_eq!(parse_margin("10"), Ok(0.1));
        assert_eq!(parse_margin("0.5%"), Ok(0.005));
        assert!(parse_margin("120%").is_err());
        assert!(parse_margin("ten").is_err());
    }
}
